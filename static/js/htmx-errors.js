// htmx swaps nothing when a request is refused (a 429 for too many posts, a 503 while the
// database restarts, a 500) or never answered, so without this a tap would seem to do
// nothing. The server's own words (the error page's alert, or its main text) are shown in
// the page's banner instead; a later answer that worked clears it.
const banner = () => document.getElementById("htmx-error");

function show(words) {
  const element = banner();
  if (!element) return;
  element.textContent = words;
  element.hidden = false;
  element.scrollIntoView({ block: "nearest" });
}

function wordsOf(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const said = page.querySelector("main [role=alert]:not(#htmx-error)") ?? page.querySelector("main") ?? page.body;
  return (said?.textContent ?? "").replace(/\s+/g, " ").trim();
}

document.addEventListener("htmx:responseError", (event) => {
  const words = wordsOf(event.detail.xhr.responseText || "");
  show(words || "That did not work: the server refused it. Nothing was saved; try again.");
});

document.addEventListener("htmx:sendError", () => {
  show("The server did not answer: check your connection and try again. Nothing was saved.");
});

document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.successful && banner()) banner().hidden = true;
});

// A refusal told in the page's messages (swapped in with the part of the page that changed,
// where the player is: the winter's lists) is scrolled into view, so it is never missed.
document.addEventListener("htmx:afterSettle", () => {
  document.querySelector("#messages .message-error")?.scrollIntoView({ block: "nearest" });
});
