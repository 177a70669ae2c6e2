// The SPARQL page: a read-only query, its rows as a table (values written as text).
"use strict";

const $ = id => document.getElementById(id);

$("query-form").addEventListener("submit", async event => {
  event.preventDefault();
  $("error").textContent = "";
  $("run").disabled = true;
  try {
    const result = await gw.postJson("/api/sparql", {query: $("query").value, grown: $("grown").checked});
    $("results").tHead.replaceChildren(gw.el("tr", {}, result.columns.map(c => gw.el("th", {}, c))));
    $("results").tBodies[0].replaceChildren(...result.rows.map(row =>
      gw.el("tr", {}, result.columns.map(c => gw.el("td", {}, row[c] === null ? "" : String(row[c]))))));
    const shown = `${result.rows.length} row${result.rows.length === 1 ? "" : "s"}`;
    $("count").textContent = result.truncated ? `the first ${shown}; more matched (add a LIMIT or narrow the query)` : shown;
  } catch (error) {
    $("error").textContent = error.message;
  } finally {
    $("run").disabled = false;
  }
});
