// The campaign map: pan and zoom with @panzoom/panzoom (drag, pinch, Ctrl + wheel, buttons,
// arrow keys on the frame), a panel that tells what is on a tapped hex, and the map by
// keyboard (its tiles one tab stop, the arrow keys from tile to tile). Without JavaScript the
// map is a plain SVG in a scrollable frame, with each hex's details in its <title> and its
// picks as links. A page that loads this without panzoom (the orders page) has the map
// opening on what it asks and the keyboard, without pan, zoom or panel.
(function () {
  "use strict";

  var DRAG = 6; // px a pointer may move and still count as a tap
  var SVG_NS = "http://www.w3.org/2000/svg";
  var KEYS_HELP = "By keyboard: Tab to the map, then the arrow keys move from tile to tile " +
    "(Left and Right along the row, Up and Down to the row above or below), and Enter or " +
    "Space chooses the tile, as a tap does.";
  var wanted = null; // "q,r": the tile chosen by keyboard, focused again in the map htmx swaps in
  var described = 0; // ids given to the picks, which describe their tiles

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

  // The map by keyboard, WAI-ARIA's roving tabindex: of the tiles (g.hex, named by their
  // <title>: terrain, owner, settlement, units) one is in the tab order, the current one;
  // the arrow keys make a neighbour current and focus it, Enter or Space does what a tap
  // does. A pick on a tile (a link, out of the tab order here) describes it. Pointy-top hexes
  // have no tile straight above: Up and Down alternate between the two, keeping to a column
  // (odd rows lie half a tile left of it), or take the other one at the map's edge.
  function neighbour(tiles, hex, key) {
    var at = hex.split(",").map(Number), odd = Math.abs(at[1] % 2) === 1;
    var steps = {
      ArrowLeft: [[-1, 0]],
      ArrowRight: [[1, 0]],
      ArrowUp: odd ? [[1, -1], [0, -1]] : [[0, -1], [1, -1]],
      ArrowDown: odd ? [[0, 1], [-1, 1]] : [[-1, 1], [0, 1]],
    }[key];
    for (var i = 0; steps && i < steps.length; i++) {
      var tile = tiles.get((at[0] + steps[i][0]) + "," + (at[1] + steps[i][1]));
      if (tile) return tile;
    }
    return null;
  }

  function picksOn(svg, tile) {
    return svg.querySelectorAll('a.pick[data-hex="' + tile.getAttribute("data-hex") + '"]');
  }

  function firstTile(frame, svg, tiles) {
    var pick = svg.querySelector("a.pick-chosen") || svg.querySelector("a.pick");
    var hex = (pick && pick.getAttribute("data-hex")) || frame.dataset.centre;
    return tiles.get(hex) || tiles.values().next().value;
  }

  // The focused tile stays in sight: a scrolled frame scrolls to it, a panned map pans to it.
  // Panzoom draws in the next frame, and a zoom slides for a moment: the tile is measured once
  // the map is still, if it still has the focus.
  function keepInView(frame, tile, panzoom) {
    if (!panzoom) {
      tile.scrollIntoView({ block: "nearest", inline: "nearest" });
      return;
    }
    requestAnimationFrame(function () {
      var sliding = tile.ownerSVGElement.getAnimations().map(function (a) { return a.finished; });
      Promise.allSettled(sliding).then(function () {
        if (document.activeElement !== tile) return;
        var box = tile.getBoundingClientRect(), view = frame.getBoundingClientRect();
        var dx = Math.max(0, view.left - box.left) + Math.min(0, view.right - box.right);
        var dy = Math.max(0, view.top - box.top) + Math.min(0, view.bottom - box.bottom);
        var scale = panzoom.getScale();
        if (dx || dy) panzoom.pan(dx / scale, dy / scale, { relative: true, animate: false });
        requestAnimationFrame(function () {
          tile.scrollIntoView({ block: "nearest", inline: "nearest" });
        });
      });
    });
  }

  // Each pick leaves the tab order and describes its tile instead: the tile is what has focus.
  function describeByPicks(svg, tiles) {
    svg.querySelectorAll("a.pick[data-hex]").forEach(function (pick) {
      var tile = tiles.get(pick.getAttribute("data-hex"));
      if (!tile) return;
      pick.setAttribute("tabindex", "-1");
      if (!pick.id) pick.id = "map-pick-" + (++described);
      var by = tile.getAttribute("aria-describedby");
      tile.setAttribute("aria-describedby", by ? by + " " + pick.id : pick.id);
    });
  }

  // The focused tile's outline, drawn above every layer: a white halo, the focus colour on it.
  function focusRing(svg) {
    var ring = document.createElementNS(SVG_NS, "g");
    ring.setAttribute("class", "tile-focus");
    ring.setAttribute("aria-hidden", "true");
    ring.setAttribute("display", "none");
    ring.append(document.createElementNS(SVG_NS, "polygon"), document.createElementNS(SVG_NS, "polygon"));
    svg.append(ring);
    return ring;
  }

  function ringAround(ring, tile) {
    var outline = tile.querySelector("polygon.terrain");
    if (!outline || !tile.matches(":focus-visible")) return;
    ring.querySelectorAll("polygon").forEach(function (line) {
      line.setAttribute("points", outline.getAttribute("points"));
    });
    ring.setAttribute("display", "inline");
  }

  // Enter or Space on a tile does what a tap does: its pick's link follows (the topmost, as a
  // tap would find), else the panel tells what is on it.
  function tap(svg, tile, panel) {
    var picks = picksOn(svg, tile);
    if (picks.length) {
      wanted = tile.getAttribute("data-hex");
      var click = new MouseEvent("click", { bubbles: true, cancelable: true, view: window });
      picks[picks.length - 1].dispatchEvent(click);
    } else if (panel) {
      panel.textContent = hexTitle(svg, tile);
    }
  }

  function keyboardTiles(frame, svg, panzoom, panel) {
    var tiles = new Map();
    svg.querySelectorAll("g.hex[data-hex]").forEach(function (tile) {
      tile.setAttribute("tabindex", "-1");
      tiles.set(tile.getAttribute("data-hex"), tile);
    });
    if (!tiles.size) return;
    describeByPicks(svg, tiles);
    if (frame.getAttribute("tabindex") === "0") frame.setAttribute("tabindex", "-1");
    var ring = focusRing(svg);
    var current = firstTile(frame, svg, tiles);
    current.setAttribute("tabindex", "0");

    function moveTo(tile) {
      if (tile !== current) {
        current.setAttribute("tabindex", "-1");
        tile.setAttribute("tabindex", "0");
        current = tile;
      }
      if (document.activeElement === tile) return;
      tile.focus({ preventScroll: true });
      keepInView(frame, tile, panzoom);
    }

    frame.addEventListener("focusin", function (event) {
      var tile = event.target.closest && event.target.closest("g.hex[data-hex]");
      if (!tile) return;
      moveTo(tile);
      ringAround(ring, tile);
    });
    frame.addEventListener("focusout", function () { ring.setAttribute("display", "none"); });
    frame.addEventListener("keydown", function (event) {
      var tile = event.target.closest && event.target.closest("g.hex[data-hex]");
      if (!tile || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "Enter" || event.key === " ") {
        tap(svg, tile, panel);
      } else {
        var next = neighbour(tiles, tile.getAttribute("data-hex"), event.key);
        if (!next) return;
        moveTo(next);
      }
      event.preventDefault();
    });

    var help = document.createElement("p");
    help.className = "map-keys muted";
    help.textContent = KEYS_HELP;
    frame.before(help);

    // A tile chosen by keyboard keeps the focus in the map swapped in for the one it was in.
    var again = wanted && tiles.get(wanted);
    wanted = null;
    if (again && (!document.activeElement || document.activeElement === document.body)) {
      moveTo(again);
    }
  }

  function setUp(frame) {
    var svg = frame.querySelector("svg");
    if (!svg || frame.dataset.mapReady) return;
    frame.dataset.mapReady = "1";
    centre(frame);
    if (typeof Panzoom !== "function") {
      keyboardTiles(frame, svg, null, null);
      return;
    }
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

    // On the frame the arrows pan; on a tile they move to another (keyboardTiles). Both zoom.
    frame.addEventListener("keydown", function (event) {
      var onTile = event.target !== frame;
      if (onTile && !event.target.closest("g.hex")) return;
      var by = 40 / panzoom.getScale();
      var moves = { ArrowLeft: [by, 0], ArrowRight: [-by, 0], ArrowUp: [0, by], ArrowDown: [0, -by] };
      if (moves[event.key] && !onTile) {
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
    keyboardTiles(frame, svg, panzoom, panel);
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
