// The campaign map: pan and zoom with @panzoom/panzoom (drag, pinch, Ctrl + wheel, buttons,
// arrow keys), and a panel that tells what is on a tapped hex. Without JavaScript the map is
// a plain SVG in a scrollable frame, with each hex's details in its <title>. A page that loads
// this without panzoom (the orders page) has only the first: its map opens on what it asks.
(function () {
  "use strict";

  var DRAG = 6; // px a pointer may move and still count as a tap

  function button(label, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", action);
    return b;
  }

  function hexTitle(svg, target) {
    var spot = target.closest("[data-hex]");
    if (!spot) return null;
    var hex = svg.querySelector('g.hex[data-hex="' + spot.getAttribute("data-hex") + '"]');
    var title = hex && hex.querySelector("title");
    return title ? title.textContent : null;
  }

  // On a phone the map is larger than the screen: scroll its frame to the chosen tile, else
  // to the first tile to choose, else to the hex the page names (the viewer's capital).
  function centre(frame) {
    var named = frame.dataset.centre;
    var spot = frame.querySelector(".pick-chosen") || frame.querySelector(".pick") ||
      (named && frame.querySelector('g.hex[data-hex="' + named + '"]'));
    if (!spot) return;
    var box = spot.getBoundingClientRect(), view = frame.getBoundingClientRect();
    frame.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
    frame.scrollTop += box.top - view.top - (view.height - box.height) / 2;
  }

  function setUp(frame) {
    var svg = frame.querySelector("svg");
    if (svg && !frame.dataset.mapReady) centre(frame);
    if (!svg || frame.dataset.mapReady || typeof Panzoom !== "function") return;
    frame.dataset.mapReady = "1";
    var panzoom = Panzoom(svg, { minScale: 1, maxScale: 8, step: 0.3, cursor: "grab" });
    frame.classList.add("map-pannable");

    var tools = document.createElement("div");
    tools.className = "map-tools";
    tools.setAttribute("role", "group");
    tools.setAttribute("aria-label", "Zoom the map");
    tools.append(
      button("Zoom in", function () { panzoom.zoomIn(); }),
      button("Zoom out", function () { panzoom.zoomOut(); }),
      button("Reset", function () { panzoom.reset(); })
    );
    frame.before(tools);

    var panel = document.createElement("p");
    panel.className = "hex-details";
    panel.setAttribute("aria-live", "polite");
    panel.textContent = "Tap a hex to read what is on it.";
    frame.after(panel);

    // Ctrl + wheel (and a trackpad's pinch) zooms; the plain wheel still scrolls the page.
    frame.addEventListener("wheel", function (event) {
      if (event.ctrlKey || event.metaKey) panzoom.zoomWithWheel(event);
    }, { passive: false });

    // A drag pans; only a pointer that stays put is a tap, on a link or on a hex.
    var start = null;
    var dragged = false;
    frame.addEventListener("pointerdown", function (event) {
      start = { x: event.clientX, y: event.clientY };
      dragged = false;
    }, true);
    frame.addEventListener("pointermove", function (event) {
      if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > DRAG) dragged = true;
    }, { passive: true, capture: true });
    frame.addEventListener("click", function (event) {
      if (dragged) {
        dragged = false;
        event.preventDefault();
        event.stopPropagation();
      }
    }, true);
    frame.addEventListener("click", function (event) {
      if (event.target.closest("a")) return; // a pick: its link does the work
      var words = hexTitle(svg, event.target);
      if (words) panel.textContent = words;
    });

    frame.addEventListener("keydown", function (event) {
      if (event.target !== frame) return;
      var by = 40 / panzoom.getScale();
      var moves = { ArrowLeft: [by, 0], ArrowRight: [-by, 0], ArrowUp: [0, by], ArrowDown: [0, -by] };
      if (moves[event.key]) {
        panzoom.pan(moves[event.key][0], moves[event.key][1], { relative: true });
      } else if (event.key === "+" || event.key === "=") {
        panzoom.zoomIn();
      } else if (event.key === "-") {
        panzoom.zoomOut();
      } else if (event.key === "0") {
        panzoom.reset();
      } else {
        return;
      }
      event.preventDefault();
    });

    frame.addEventListener("htmx:beforeCleanupElement", function (event) {
      if (event.target === frame) panzoom.destroy();
    });
  }

  function setUpAll(root) {
    var frames = root.matches && root.matches(".map-frame") ? [root] : [];
    frames.concat(Array.from(root.querySelectorAll(".map-frame"))).forEach(setUp);
  }

  if (window.htmx) {
    htmx.onLoad(setUpAll);
  } else {
    document.addEventListener("DOMContentLoaded", function () { setUpAll(document); });
  }
})();
