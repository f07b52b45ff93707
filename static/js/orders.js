// The resolution sequence (ruling O2) sorted by dragging, with SortableJS: dropping a unit
// posts the new order of the list (its form's hidden `unit` fields) through htmx. The up and
// down buttons of each unit do the same without dragging, and without JavaScript.
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
