// The graph browser: the best-supported edges that pass the filters, drawn with Cytoscape.js; more is
// drawn on demand around a node. Labels are drawn on the canvas or written with textContent.
"use strict";

const $ = id => document.getElementById(id);
const STYLE = [
  {selector: "node", style: {"label": "data(label)", "text-valign": "bottom",
    "background-color": "#dbe7ff", "border-color": "#2f6fed", "border-width": 1.5,
    "text-wrap": "ellipsis", "text-background-color": "#f8fafc", "text-background-opacity": 0.75}},
  {selector: "node[?unlinked]", style: {"background-color": "#fff", "border-color": "#7a5af8", "border-style": "dashed"}},
  {selector: "node[kind = 'literal']", style: {"shape": "round-rectangle", "background-color": "#fff7e6", "border-color": "#d48806"}},
  {selector: "node[kind = 'event']", style: {"shape": "diamond", "background-color": "#d1fadf", "border-color": "#039855"}},
  {selector: "edge", style: {"label": "data(label)", "color": "#475467", "curve-style": "bezier",
    "target-arrow-shape": "triangle", "line-color": "#98a2b3", "target-arrow-color": "#98a2b3",
    "text-rotation": "autorotate", "text-background-color": "#f8fafc", "text-background-opacity": 0.8,
    "text-wrap": "ellipsis"}},
  {selector: "edge[kind = 'role']", style: {"line-style": "dashed", "line-color": "#039855", "target-arrow-color": "#039855"}},
  {selector: "edge[?unlinked]", style: {"line-style": "dashed", "line-color": "#7a5af8", "target-arrow-color": "#7a5af8", "color": "#7a5af8"}},
  // a node's "width" is its size: the selected look of edges must not reach nodes (sizes: labels.js)
  {selector: "node:selected", style: {"border-width": 3, "border-color": "#2f6fed"}},
  {selector: "edge:selected", style: {"line-color": "#2f6fed", "target-arrow-color": "#2f6fed"}},
  ...gwLabels.STYLE,
];

// while panning or zooming a snapshot moves instead of the graph: thousands of edges stay responsive on a
// machine without a GPU; labels are sized and placed by labels.js
const cy = cytoscape({container: $("cy"), style: STYLE, wheelSensitivity: 0.3, minZoom: 0.05, maxZoom: 4,
                      textureOnViewport: true, hideEdgesOnViewport: true});
const placeLabels = gwLabels.watch(cy);
window.gwGraph = cy;  // for the browser tests and the console

function filterParams() {
  const params = new URLSearchParams();
  for (const key of ["q", "document", "system", "type"]) if ($(key).value) params.set(key, $(key).value);
  if (Number($("confidence").value) > 0) params.set("min_confidence", $("confidence").value);
  return params;
}

function elements(data) {
  return [
    ...data.nodes.map(n => ({group: "nodes", data: n})),
    ...data.edges.map(e => ({group: "edges", data: e})),
  ];
}

function layout(nodes) {
  if (nodes.length > 600) return nodes.layout({name: "concentric", animate: false, minNodeSpacing: 12}).run();
  // from a circle, not from random places: one graph is drawn the same way each time it is shown; long
  // edges and a pull to the centre leave room on the fitted canvas for a relation's label along its edge
  nodes.layout({name: "circle", animate: false}).run();
  return nodes.layout({name: "cose", animate: false, nodeRepulsion: () => 400000, idealEdgeLength: () => 250,
                       edgeElasticity: () => 200, gravity: 5, componentSpacing: 20, nodeOverlap: 20, padding: 40,
                       numIter: 1000, randomize: false}).run();
}

async function show() {
  const params = filterParams();
  params.set("limit", $("limit").value);
  $("notice").textContent = "loading…";
  try {
    const data = await gw.api("/api/graph?" + params);
    drawnVersion = data.version;
    cy.elements().remove();
    cy.add(elements(data));
    layout(cy.elements());
    cy.fit(undefined, 40);
    if (cy.zoom() > 1.2) {  // a few nodes: not spread over the whole canvas
      cy.zoom(1.2);
      cy.center();
    }
    placeLabels();
    $("notice").textContent = data.total > data.edges.length
      ? `${data.edges.length} of ${data.total} edges drawn: search, filter or expand a node for more`
      : `${data.total} edges`;
    if (!data.total) $("notice").textContent = "No edges match: run an extraction, or loosen the filters.";
    gw.show($("details"), gw.el("p", {className: "muted"}, "Nothing selected."));
  } catch (error) {
    $("notice").textContent = "error: " + error.message;
  }
}

async function expand(node) {
  const params = filterParams();
  params.delete("q");
  params.delete("type");
  const data = await gw.api(`/api/graph/nodes/${encodeURIComponent(node.id())}/neighbours?` + params);
  const fresh = cy.add(elements(data).filter(e => cy.getElementById(e.data.id).empty()));
  const around = node.position();
  fresh.nodes().forEach((n, i) => {  // a ring around the node, then a short local layout
    const angle = 2 * Math.PI * i / Math.max(fresh.nodes().length, 1);
    n.position({x: around.x + 140 * Math.cos(angle), y: around.y + 140 * Math.sin(angle)});
  });
  placeLabels();
  const note = $("notice");
  note.textContent = `${node.data("label")}: ${data.edges.length} of ${data.total} edges around it drawn (${fresh.edges().length} new)`;
  return fresh;
}

let documentNames = new Map();  // document id -> its file name, from the facets

function supportBlock(s) {
  const facts = gw.el("dl", {},
    gw.el("dt", {}, "document"), gw.el("dd", {title: s.document_id}, documentNames.get(s.document_id) || s.document_id),
    s.page ? [gw.el("dt", {}, "page"), gw.el("dd", {}, String(s.page))] : null,
    gw.el("dt", {}, "system"), gw.el("dd", {}, s.system || ""),
    s.agent ? [gw.el("dt", {}, "agent"), gw.el("dd", {}, s.agent)] : null,
    s.model ? [gw.el("dt", {}, "model"), gw.el("dd", {}, s.model)] : null,
    gw.el("dt", {}, "confidence"), gw.el("dd", {}, s.confidence === null ? "–" : s.confidence.toFixed(3)));
  return gw.el("div", {className: "support"},
    s.evidence ? gw.highlighted(s.evidence, s.surfaces) : gw.el("p", {className: "muted"}, "no evidence sentence"), facts);
}

function showEdge(edge) {
  const d = edge.data();
  gw.show($("details"), 
    gw.el("h2", {}, `${edge.source().data("label")} — ${d.label} → ${edge.target().data("label")}`),
    gw.el("div", {className: "iri"}, d.unlinked ? `no KB property fits: kept under the text's phrase, ${d.iri}` : d.iri),
    gw.el("h3", {}, `evidence (${d.support.length})`),
    ...d.support.map(supportBlock),
    edge.target().data("iri") || edge.target().data("kind") === "literal"
      ? gw.el("button", {className: "secondary edit-remove", type: "button", onclick: () => removeFact(edge)}, "Remove this fact")
      : null);
}

// the user's edits: each recorded, holding when documents are extracted again, and undoable
let mergeFrom = null;

async function edit(body) {
  try {
    await gw.postJson("/api/edits", body);
    $("notice").textContent = "edited: the graph is read again";
    await Promise.all([show(), loadEdits()]);
  } catch (error) {
    $("notice").textContent = "error: " + error.message;
  }
}

function removeFact(edge) {
  const target = edge.target().data();
  if (!confirm(`Remove "${edge.source().data("label")} — ${edge.data("label")} → ${target.label}" from every document?`)) return;
  edit({kind: "remove", fact: [edge.source().data("iri"), edge.data("iri"), target.iri || target.label]});
}

function renameNode(node) {
  const label = prompt(`A new name for ${node.data("label")}:`, node.data("label"));
  if (label && label.trim() && label !== node.data("label")) edit({kind: "rename", node: node.data("iri"), label});
}

function startMerge(node) {
  mergeFrom = node;
  $("notice").textContent = `Click the node ${node.data("label")} is the same as (Esc to stop).`;
}

async function loadEdits() {
  const made = await gw.api("/api/edits");
  gw.show($("edits"), made.length ? gw.el("h3", {}, "Edits") : null, ...made.map(e => gw.el("div", {className: "edit"},
    gw.el("span", {className: e.undone ? "muted" : ""}, `${e.number}. ${e.what}${e.undone ? " (undone)" : ""}`),
    e.undone ? null : gw.el("button", {type: "button", className: "secondary edit-undo", onclick: async () => {
      await gw.api(`/api/edits/${e.number}/undo`, {method: "POST"});
      await Promise.all([show(), loadEdits()]);
    }}, "Undo"))));
}
document.addEventListener("keydown", event => { if (event.key === "Escape") { mergeFrom = null; $("notice").textContent = ""; } });

function showNode(node) {
  const d = node.data();
  const types = (d.types || []).filter(t => !t.startsWith("https://graphwright.dev/"));
  gw.show($("details"), 
    gw.el("h2", {}, d.label),
    d.iri ? gw.el("div", {className: "iri"}, d.iri) : null,
    gw.el("dl", {},
      gw.el("dt", {}, "kind"), gw.el("dd", {}, d.kind === "iri" ? (d.unlinked ? "entity, not in the KB" : "entity in the KB") : d.kind),
      types.length ? [gw.el("dt", {}, "types"), gw.el("dd", {}, types.map(gw.short).join(", "))] : null,
      d.datatype ? [gw.el("dt", {}, "datatype"), gw.el("dd", {}, gw.short(d.datatype))] : null,
      gw.el("dt", {}, "edges"), gw.el("dd", {}, `${node.connectedEdges().length} drawn of ${d.degree}`)),
    d.degree > node.connectedEdges().length
      ? gw.el("button", {className: "secondary", type: "button", onclick: () => expand(node)}, "Draw its neighbours") : null,
    d.iri ? gw.el("button", {className: "secondary edit-rename", type: "button", onclick: () => renameNode(node)}, "Rename") : null,
    d.iri ? gw.el("button", {className: "secondary edit-merge", type: "button", onclick: () => startMerge(node)}, "Merge into…") : null,
    ...(d.support || []).map(supportBlock));
}

cy.on("tap", "edge", event => showEdge(event.target));
cy.on("tap", "node", event => {
  const node = event.target;
  if (mergeFrom && mergeFrom.id() !== node.id() && node.data("iri")) {
    const from = mergeFrom;
    mergeFrom = null;
    if (confirm(`Merge ${from.data("label")} into ${node.data("label")} in every document?`)) {
      edit({kind: "merge", source: from.data("iri"), target: node.data("iri")});
      return;
    }
  }
  showNode(node);
});
cy.on("dbltap", "node", event => expand(event.target));

async function loadFacets() {
  const f = await gw.api("/api/graph/facets");
  documentNames = new Map(f.documents.map(d => [d.iri, d.label]));
  gw.fill($("document"), f.documents, d => d.label, "all documents");
  gw.fill($("system"), f.systems, null, "all systems");
  gw.fill($("type"), f.types, t => t.label, f.types.length ? "all types" : "no typed nodes");
  $("type").disabled = !f.types.length;
  $("size").textContent = `${f.nodes} nodes · ${f.edges} edges in the store`;
}

$("filters").addEventListener("submit", event => { event.preventDefault(); show(); });
$("confidence").addEventListener("input", () => { $("confidence-value").textContent = $("confidence").value; });
for (const id of ["document", "system", "type", "limit"]) $(id).addEventListener("change", show);

// the graph grows while jobs run: say so (and refresh the filters) without redrawing under the user; an
// edit's own redraw already shows its version, so it gets no such notice
let drawnVersion = null;
let seenVersion = null;
new EventSource("/api/events").addEventListener("jobs", async message => {
  const version = JSON.parse(message.data).store_version;
  if (seenVersion !== null && version !== seenVersion) await loadFacets();
  seenVersion = version;
  if (drawnVersion !== null && version > drawnVersion) {
    $("notice").textContent = "New results were stored: press Show to draw them.";
  }
});

// filters given in the address (a job's link to its documents: /graph?document=...&system=...)
function filtersFromAddress() {
  const given = new URLSearchParams(location.search);
  for (const key of ["q", "document", "system", "type"]) {
    const value = given.get(key);
    if (value && (key === "q" || [...$(key).options].some(o => o.value === value))) $(key).value = value;
  }
}

loadFacets().then(filtersFromAddress).then(show).then(loadEdits).catch(error => { $("notice").textContent = "error: " + error.message; });
