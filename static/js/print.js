// A button with data-print prints the page (no inline script, for a strict CSP).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
