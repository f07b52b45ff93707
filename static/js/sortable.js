// A list sorted by dragging, with SortableJS (the orders' resolution sequence, ruling O2; a
// kingdom's honour wishes, option OB2): dropping an item posts the new order of the list
// (its form's hidden fields) through htmx. The up and down buttons of each item do the same
// without dragging, and without JavaScript.
htmx.onLoad(function (root) {
  root.querySelectorAll("[data-sortable]").forEach(function (list) {
    if (list.sortable) return;
    list.sortable = Sortable.create(list, {
      handle: ".drag-handle",
      animation: 150,
      onEnd: function () { htmx.trigger(list.closest("form"), "sorted"); },
    });
  });
});
