// Back and Forward never show a page as it was before a post (a board still offering Ready
// after Ready was pressed, "0 of 1 unit ordered" after the orders were given): a page the
// browser restores from its back-forward cache, or takes from its HTTP cache for a history
// step without asking the server (nothing transferred), is asked of the server again.
// htmx keeps no copies of its own either (historyCacheSize 0 in base.html's htmx-config):
// a step back within a page asks the server too.
window.addEventListener("pageshow", (event) => {
  const [navigation] = performance.getEntriesByType("navigation");
  const fromCache = navigation?.type === "back_forward" && navigation.transferSize === 0;
  if (event.persisted || fromCache) location.reload();
});
