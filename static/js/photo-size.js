// A photograph bigger than the site takes is refused here, in words, before it is sent
// (the server refuses it too): the file input says how big it may be, and what to say.
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.dataset.maxBytes) return;
  const file = input.files?.[0];
  const tooLarge = file && file.size > Number(input.dataset.maxBytes);
  input.setCustomValidity(tooLarge ? input.dataset.tooLarge : "");
  if (tooLarge) input.reportValidity();
});
