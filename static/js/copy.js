// A button with data-copy="#field" copies that field's text to the clipboard. Where the
// clipboard is not offered (an insecure page, an old browser), it selects the text instead,
// for the visitor to copy by hand. Delegated, so it works on a board htmx swapped in.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(field.value ?? field.textContent);
    button.textContent = "Copied";
  } catch {
    field.focus();
    field.select?.();
    button.textContent = "Select and copy";
  }
  setTimeout(() => { button.textContent = label; }, 2000);
});
