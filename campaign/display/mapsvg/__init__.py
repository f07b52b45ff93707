"""The campaign map as one self-contained inline SVG, drawn on the server from a campaign file.

Pure: no Django, no I/O, no JavaScript in the output. `render.render_map` takes the campaign
file (format 1) and how each kingdom looks (from the memberships) and returns the SVG
markup. Every text that comes from the file or from users is escaped by ElementTree, which
builds the whole document.

Hexes are pointy-top, laid out from axial [q, r] (ruling M1): x grows with q, y with r.
Colour is never the only sign: terrain carries marks (trees, peaks, reeds, waves), owned
tiles and units carry their kingdom's heraldic letter, and every hex has a `<title>` saying
in words what is there.

One module a layer: `scene` reads the file into what the drawing needs, `geometry` places
hexes, `terrain`, `control`, `units` and `orders` draw their layers, `words` says what a
tap on a hex says, `legend` draws the legend, `render` lays them together. An optional
rule's layer is declared in `campaign.display.optional` (`layer.MapLayer`); the code here
never names an option.
"""
