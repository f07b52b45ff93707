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

// On a phone the map is larger than the screen: scroll its frame to the chosen unit, or to
// the first unit waiting for an order.
htmx.onLoad(function (root) {
  var frame = root.querySelector(".orders-map");
  var pick = frame && (frame.querySelector(".pick-chosen") || frame.querySelector(".pick"));
  if (!pick) return;
  var box = pick.getBoundingClientRect(), view = frame.getBoundingClientRect();
  frame.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
  frame.scrollTop += box.top - view.top - (view.height - box.height) / 2;
});
