// The ask page: a question answered from the graph, with the facts and evidence it cites.
"use strict";

const $ = id => document.getElementById(id);

gw.api("/api/info").then(info => gw.fill($("model"), info.models)).catch(error => { $("error").textContent = error.message; });

$("ask-form").addEventListener("submit", async event => {
  event.preventDefault();
  $("error").textContent = "";
  $("result").hidden = true;  // the last answer is not left on screen as if it were this question's
  $("run").disabled = true;
  $("run").textContent = "Asking…";
  try {
    const r = await gw.postJson("/api/ask", {question: $("question").value, mode: $("mode").value, model: $("model").value,
                                             guess: $("guess").checked, reader: $("notes-first").checked ? "notes" : "short"});
    $("result").hidden = false;
    $("answer").textContent = r.nothing ? `The graph holds nothing about ${r.nothing}.` : r.error ? `no answer: ${r.error}` : r.answer;
    $("support").textContent = r.supported || r.nothing ? "" : (r.sources.length
      ? "Not supported by the graph: the answer cites nothing retrieved, so it is the model's guess."
      : "The graph holds nothing about the question: the answer is the model's guess.");
    $("notes").hidden = !r.notes;
    $("notes").textContent = r.notes ? `The model's notes: ${r.notes}` : "";
    $("citations").replaceChildren(...r.citations.map(c => gw.el("li", {}, `[${c.id}] ${c.text}`,
      c.documents.length ? gw.el("span", {className: "muted"}, `  (${c.documents.map(d => (r.document_names || {})[d] || d).join(", ")})`) : null)));
    $("sources").tBodies[0].replaceChildren(...r.sources.map(s => gw.el("tr", {},
      gw.el("td", {}, s.id), gw.el("td", {}, s.text), gw.el("td", {}, s.score.toFixed(3)))));
  } catch (error) {
    $("error").textContent = error.message;
  } finally {
    $("run").disabled = false;
    $("run").textContent = "Ask";
  }
});
