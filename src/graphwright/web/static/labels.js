// Readable labels on the graph canvas, from 20 edges to thousands. Two rules:
// 1. a label has one size on screen at every zoom (12 px for names, 10 px for relations), and so has a
//    node (by its degree), so zooming in spreads the nodes apart while they and their labels keep their
//    size, and room appears;
// 2. a label that would overlap a label already placed, or a node, is not drawn. Labels are placed by
//    priority: the selected node and its neighbourhood, then nodes by degree (hubs first), then edges.
// Placement is redone after each layout, zoom, pan, selection and resize.
"use strict";

const gwLabels = (() => {
  const PX = {node: 12, edge: 10, width: 150, margin: 3};
  const CELL = 80;  // the grid's cell, in screen pixels: overlap tests look only at nearby shapes

  // a rectangle in screen pixels, turned by `angle` about its centre: its corners and its upright bounds
  function rectangle(cx, cy, width, height, angle = 0) {
    const c = Math.cos(angle), s = Math.sin(angle), w = width / 2, h = height / 2;
    const corners = [[-w, -h], [w, -h], [w, h], [-w, h]].map(([x, y]) => [cx + x * c - y * s, cy + x * s + y * c]);
    const xs = corners.map(p => p[0]), ys = corners.map(p => p[1]);
    return {corners, x1: Math.min(...xs), x2: Math.max(...xs), y1: Math.min(...ys), y2: Math.max(...ys)};
  }
  const fromBounds = b => rectangle((b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2, b.x2 - b.x1, b.y2 - b.y1);

  // two convex quadrilaterals overlap unless one of their sides' normals separates them
  function overlap(a, b) {
    if (a.x2 <= b.x1 || b.x2 <= a.x1 || a.y2 <= b.y1 || b.y2 <= a.y1) return false;
    for (const shape of [a, b]) {
      for (let i = 0; i < 2; i++) {
        const [p, q] = [shape.corners[i], shape.corners[i + 1]];
        const axis = [q[1] - p[1], p[0] - q[0]];
        const span = s => s.corners.map(([x, y]) => x * axis[0] + y * axis[1]);
        const [sa, sb] = [span(a), span(b)];
        if (Math.max(...sa) <= Math.min(...sb) || Math.max(...sb) <= Math.min(...sa)) return false;
      }
    }
    return true;
  }

  class Shapes {  // placed shapes, bucketed in a grid by their upright bounds
    constructor() { this.cells = new Map(); }
    keys(r) {
      const keys = [];
      for (let x = Math.floor(r.x1 / CELL); x <= Math.floor(r.x2 / CELL); x++)
        for (let y = Math.floor(r.y1 / CELL); y <= Math.floor(r.y2 / CELL); y++) keys.push(x + "," + y);
      return keys;
    }
    add(r, owner, body = false) {
      for (const k of this.keys(r)) (this.cells.get(k) || this.cells.set(k, []).get(k)).push([r, owner, body]);
    }
    hits(r, owners, bodies = true) {
      for (const k of this.keys(r))
        for (const [o, owner, body] of this.cells.get(k) || [])
          if ((bodies || !body) && !owners.includes(owner) && overlap(r, o)) return true;
      return false;
    }
  }

  // where a node's label may go, tried in this order when the one before would overlap
  const SIDES = ["bottom", "top", "right", "left"];

  // a node grows with its edges, so the hubs of a large graph stand out
  const nodeSize = node => Math.min(56, 14 + 6 * Math.sqrt(node.degree(false)));
  const onScreenPx = px => ele => px / ele.cy().zoom();  // a style value that rule 1 keeps at px on screen
  // a node shrinks with the zoom down to half its size, so a large graph zoomed out is not all nodes
  const byZoom = size => ele => size(ele) * Math.min(1, Math.max(0.5, ele.cy().zoom())) / ele.cy().zoom();

  // the rules a page puts after its own stylesheet: read again at each zoom (cy.style().update())
  const STYLE = [
    {selector: "node", style: {"font-size": onScreenPx(PX.node), "text-max-width": onScreenPx(PX.width),
                               "text-margin-y": onScreenPx(PX.margin), "width": byZoom(nodeSize), "height": byZoom(nodeSize)}},
    {selector: "node.label-top", style: {"text-valign": "top", "text-margin-y": onScreenPx(-PX.margin)}},
    {selector: "node.label-right", style: {"text-valign": "center", "text-halign": "right",
                                           "text-margin-x": onScreenPx(PX.margin), "text-margin-y": 0}},
    {selector: "node.label-left", style: {"text-valign": "center", "text-halign": "left",
                                          "text-margin-x": onScreenPx(-PX.margin), "text-margin-y": 0}},
    {selector: "edge", style: {"font-size": onScreenPx(PX.edge), "text-max-width": onScreenPx(PX.width),
                               "width": onScreenPx(1.5)}},
    {selector: "edge:selected", style: {"width": onScreenPx(3)}},
    {selector: ".quiet", style: {"text-opacity": 0}},
    {selector: "node.over", style: {"z-index": 10}},  // a hub whose name covers nodes is drawn above them
  ];

  const measure = document.createElement("canvas").getContext("2d");
  function textWidth(ele, px) {
    measure.font = `${ele.pstyle("font-weight").strValue} ${px}px ${ele.pstyle("font-family").strValue}`;
    return Math.min(measure.measureText(ele.data("label")).width, PX.width);  // longer ones end in an ellipsis
  }

  // where a label is drawn, in screen pixels: a node's on one of its sides, an edge's along it
  function labelShape(ele, side = "bottom") {
    if (ele.isNode()) {
      const at = ele.renderedPosition(), r = ele.renderedOuterHeight() / 2;
      const w = textWidth(ele, PX.node), h = PX.node * 1.25, gap = r + PX.margin;
      const [x, y] = {bottom: [at.x, at.y + gap + h / 2], top: [at.x, at.y - gap - h / 2],
                      right: [at.x + gap + w / 2, at.y], left: [at.x - gap - w / 2, at.y]}[side];
      return rectangle(x, y, w, h);
    }
    const mid = ele.renderedMidpoint(), a = ele.source().renderedPosition(), b = ele.target().renderedPosition();
    return rectangle(mid.x, mid.y, textWidth(ele, PX.edge) + 4, PX.edge * 1.4, Math.atan2(b.y - a.y, b.x - a.x));
  }

  // the degree from which a node counts as a hub: the top tenth, and at least 3 edges
  function hubDegree(cy) {
    const degrees = cy.nodes().map(n => n.degree(false)).sort((a, b) => b - a);
    return Math.max(3, degrees[Math.floor(degrees.length / 10)] || 0);
  }

  const onScreen = (r, w, h) => r.x2 > 0 && r.y2 > 0 && r.x1 < w && r.y1 < h;

  function byPriority(cy) {
    const chosen = cy.$(":selected");
    const near = chosen.union(chosen.closedNeighborhood());
    const rank = ele => (near.has(ele) ? 1e6 : 0) + (ele.isNode() ? 1e3 + ele.degree(false) : ele.data("support").length);
    // each element ranked once, not once per comparison: a sort compares n log n times
    const ranked = cy.elements().filter(e => e.data("label")).map(ele => [rank(ele), ele]);
    return ranked.sort((a, b) => b[0] - a[0]).map(([, ele]) => ele);
  }

  // rule 2: each element's label is drawn, on the first side where it fits, or it is "quiet"
  function place(cy) {
    const w = cy.width(), h = cy.height();
    const shapes = new Shapes(), drawn = [], sides = new Map(SIDES.map(side => [side, []])), quiet = [], over = [];
    cy.nodes().forEach(n => shapes.add(fromBounds(n.renderedBoundingBox({includeLabels: false, includeOverlays: false})),
                                       n.id(), true));
    const hub = hubDegree(cy);
    for (const ele of byPriority(cy)) {
      const own = ele.isNode() ? [ele.id()] : [];  // an edge's label is drawn under nodes: it must clear its own too
      const tried = (ele.isNode() ? SIDES : ["bottom"]).map(side => [side, labelShape(ele, side)]);
      if (!onScreen(tried[0][1], w, h)) continue;
      // a hub is named even where that covers small nodes (its label has a background): never over a label
      let fits = tried.find(([, shape]) => !shapes.hits(shape, own));
      if (!fits && ele.isNode() && ele.degree(false) >= hub) {
        fits = tried.find(([, shape]) => !shapes.hits(shape, own, false));
        if (fits) over.push(ele);
      }
      if (!fits) { quiet.push(ele); continue; }
      shapes.add(fits[1], ele.id() + " label");
      drawn.push({id: ele.id(), shape: fits[1]});
      if (ele.isNode()) sides.get(fits[0]).push(ele);
    }
    cy.batch(() => {
      cy.elements().removeClass("quiet over label-top label-right label-left");
      cy.collection(quiet).addClass("quiet");
      cy.collection(over).addClass("over");
      for (const side of SIDES.slice(1)) cy.collection(sides.get(side)).addClass("label-" + side);
    });
    cy.scratch("labels", drawn);  // for the browser tests
    return drawn;
  }

  function later(fn, ms) {
    let timer = null;
    return () => { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  // the events that keep labels sized and placed
  function watch(cy) {
    const update = () => { cy.style().update(); place(cy); };
    const soon = later(update, 150);
    cy.on("viewport resize select unselect add remove", soon);
    cy.on("layoutstop", update);
    return update;
  }

  return {STYLE, watch, overlap, rectangle, PX};
})();
