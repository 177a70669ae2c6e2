// Runs the HTML view's inline script in node against a tiny fake DOM, clicks an edge and a
// node, and prints what the page shows as JSON. Any JS error fails the process.
// innerHTML throws, so data can only have reached the page through textContent.
"use strict";
const fs = require("fs");
const page = fs.readFileSync(process.argv[2], "utf8");
const json = page.match(/<script type="application\/json" id="gw-data">([\s\S]*?)<\/script>/)[1];
const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

class ClassList {
  constructor() { this.s = new Set(); }
  add(c) { this.s.add(c); }
  remove(c) { this.s.delete(c); }
  contains(c) { return this.s.has(c); }
  toggle(c, force) { if (force === undefined) force = !this.s.has(c); if (force) this.s.add(c); else this.s.delete(c); return force; }
}
class FakeNode {
  constructor(tag, text) { this.tagName = tag; this.children = []; this.attrs = {}; this.listeners = {}; this.classList = new ClassList(); this.style = {}; this._text = text || ""; this.hidden = false; this.parentNode = null; }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  getAttribute(k) { return this.attrs[k]; }
  appendChild(c) { this.children.push(c); c.parentNode = this; return c; }
  replaceChildren(...c) { this.children = c; c.forEach((x) => { x.parentNode = this; }); }
  addEventListener(type, f) { (this.listeners[type] = this.listeners[type] || []).push(f); }
  dispatch(type, init) {
    const ev = Object.assign({ target: this, clientX: 0, clientY: 0, deltaY: 0 }, init || {});
    ev.stopPropagation = () => { ev.stopped = true; };
    ev.preventDefault = () => {};
    for (let n = this; n && !ev.stopped; n = n.parentNode) for (const f of n.listeners[type] || []) f(ev);
  }
  get textContent() { return this._text + this.children.map((c) => c.textContent).join(""); }
  set textContent(v) { this._text = String(v); this.children = []; }
  set innerHTML(v) { throw new Error("innerHTML must not be used"); }
  getBoundingClientRect() { return { left: 0, top: 0, width: 1000, height: 700 }; }
  findAll(pred, out = []) { if (pred(this)) out.push(this); this.children.forEach((c) => c.findAll(pred, out)); return out; }
}
const byId = {};
const document = {
  getElementById(id) {
    if (!byId[id]) {
      byId[id] = new FakeNode("div");
      if (id === "gw-data") byId[id]._text = json;
      byId[id].hidden = new RegExp('id="' + id + '"[^>]*\\shidden').test(page);
    }
    return byId[id];
  },
  createElement: (tag) => new FakeNode(tag),
  createElementNS: (ns, tag) => new FakeNode(tag),
  createTextNode: (text) => new FakeNode("#text", text),
};
const win = new FakeNode("window");
const started = Date.now();
for (const s of scripts) new Function("document", "window", s)(document, win);
const layoutMs = Date.now() - started;

const svg = document.getElementById("graph");
const panel = document.getElementById("panel");
const edgeGroups = svg.findAll((n) => /^edge( |$)/.test(n.attrs.class || ""));
const nodeGroups = svg.findAll((n) => (n.attrs.class || "").startsWith("node"));
const out = {
  layoutMs,
  stats: document.getElementById("stats").textContent,
  emptyShown: !document.getElementById("empty").hidden,
  edges: edgeGroups.length,
  nodes: nodeGroups.length,
  badGeometry: svg.findAll((n) => /NaN|Infinity/.test(Object.values(n.attrs).join(" "))).length,
  nodeClasses: nodeGroups.map((n) => n.attrs.class),
  edgeClasses: edgeGroups.map((n) => n.attrs.class),
  notice: document.getElementById("notice").hidden ? null : document.getElementById("notice").textContent,
};
if (edgeGroups.length) {
  edgeGroups[0].dispatch("click");
  out.edgePanel = panel.textContent;
  out.marks = panel.findAll((n) => n.tagName === "mark").map((n) => n.textContent);
  out.selected = edgeGroups[0].classList.contains("selected");
  nodeGroups[0].dispatch("pointerdown", { clientX: 10, clientY: 10 });
  win.dispatch("pointermove", { clientX: 60, clientY: 40 });
  win.dispatch("pointerup");
  out.dragged = nodeGroups[0].attrs.transform;
  nodeGroups[0].dispatch("click");  // a drag is not a click
  out.panelAfterDrag = panel.textContent;
  nodeGroups[0].dispatch("pointerdown", { clientX: 60, clientY: 40 });
  win.dispatch("pointerup");
  nodeGroups[0].dispatch("click");
  out.nodePanel = panel.textContent;
  svg.dispatch("wheel", { clientX: 500, clientY: 350, deltaY: 100 });
  out.viewBox = svg.attrs.viewBox;
}
process.stdout.write(JSON.stringify(out));
