// A page polls only while it is shown. Its polls (hx-trigger "every …", from
// {% poll_trigger %}) are held while it is hidden (a tab in the background, a phone's locked
// screen): a player with the orders board in one tab and their letters in another asks for
// one of them, not both, and a phone in a pocket asks for nothing. Shown again, the page
// asks at once (the trigger's "shown from:document"), then every so often as before.
document.addEventListener("htmx:beforeRequest", (event) => {
  const trigger = event.detail.elt.getAttribute("hx-trigger") ?? "";
  if (document.hidden && trigger.startsWith("every ")) event.preventDefault();
});

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) document.dispatchEvent(new Event("shown"));
});
