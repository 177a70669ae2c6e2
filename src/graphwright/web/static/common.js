// Helpers every page shares. Text from the graph is data: it only ever reaches the page through
// textContent (el() below), never through innerHTML.
"use strict";

const gw = {
  // el("td", {className: "x"}, "text", otherNode): children that are not nodes become text nodes
  el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node[key] = value;
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  // JSON from the API; a refusal becomes an Error carrying the server's reason
  async api(path, options) {
    const response = await fetch(path, Object.assign({credentials: "same-origin"}, options || {}));
    const body = response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text();
    if (!response.ok) {
      const detail = body && body.detail !== undefined ? body.detail : body;
      throw new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
    }
    return body;
  },

  // replace `target`'s children, leaving out null ones (replaceChildren would write "null")
  show(target, ...children) {
    target.replaceChildren(...children.flat().filter(c => c !== null && c !== undefined));
  },

  postJson(path, data) {
    return gw.api(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(data)});
  },

  // the options of `select` (strings, or objects with an iri); the choice made survives a refill
  fill(select, values, labelOf, first) {
    const kept = select.value;
    select.replaceChildren(...(first ? [gw.el("option", {value: ""}, first)] : []),
      ...values.map(v => gw.el("option", {value: typeof v === "string" ? v : v.iri}, labelOf ? labelOf(v) : v)));
    if ([...select.options].some(o => o.value === kept)) select.value = kept;
  },

  // the text with each of `surfaces` marked where it first occurs
  highlighted(text, surfaces) {
    const marks = [];
    for (const s of surfaces || []) {
      const at = s ? text.indexOf(s) : -1;
      if (at >= 0 && !marks.some(([a, b]) => at < b && a < at + s.length)) marks.push([at, at + s.length]);
    }
    marks.sort((x, y) => x[0] - y[0]);
    const parts = [];
    let last = 0;
    for (const [a, b] of marks) {
      parts.push(text.slice(last, a), gw.el("mark", {}, text.slice(a, b)));
      last = b;
    }
    parts.push(text.slice(last));
    return gw.el("div", {className: "evidence"}, parts);
  },

  short(iri) {
    return iri ? iri.replace(/^.*[\/#]/, "") : "";
  },
};

// mark the current page in the navigation
document.addEventListener("DOMContentLoaded", () => {
  for (const a of document.querySelectorAll("header nav a")) {
    if (a.getAttribute("href") === location.pathname) a.classList.add("here");
  }
});
