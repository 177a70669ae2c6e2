// The chat page: questions and streamed answers with their citations, kept for this tab (sessionStorage).
"use strict";

const $ = id => document.getElementById(id);
const KEY = "graphwright-chat";
const turns = JSON.parse(sessionStorage.getItem(KEY) || "[]");

gw.api("/api/info").then(info => gw.fill($("model"), info.models)).catch(error => { $("error").textContent = error.message; });

function turnView(turn) {
  const r = turn.result;
  const answer = !r ? (turn.partial || "…")
    : r.nothing ? `The graph holds nothing about ${r.nothing}.`
    : r.error ? `no answer: ${r.error}` : r.answer;
  const note = r && !r.nothing && !r.supported
    ? gw.el("p", {className: "muted"}, "Not supported by what was retrieved: the model's guess.") : null;
  const cited = r ? r.citations.map(c => gw.el("li", {}, `[${c.id}] ${c.text}`,
    c.documents.length ? gw.el("span", {className: "muted"},
      `  (${c.documents.map(d => (r.document_names || {})[d] || d).join(", ")})`) : null)) : [];
  return gw.el("div", {className: "turn"},
    gw.el("p", {className: "question"}, turn.question),
    gw.el("div", {className: "answer"}, answer), note,
    cited.length ? gw.el("ol", {className: "citations"}, cited) : null);
}

function render() {
  gw.show($("turns"), turns.map(turnView));
  sessionStorage.setItem(KEY, JSON.stringify(turns.filter(t => t.result)));
}

// the answer arrives as server-sent events over the POST's body: "answer" (so far), then "result"
async function ask(turn, body) {
  const response = await fetch("/api/chat", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  if (!response.ok) {
    const detail = (await response.json().catch(() => ({}))).detail;
    throw new Error(typeof detail === "string" ? detail : `HTTP ${response.status}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const kind = (block.match(/^event: (.*)$/m) || [])[1];
      const data = JSON.parse((block.match(/^data: (.*)$/m) || [])[1] || "{}");
      if (kind === "answer") turn.partial = data.text;
      else if (kind === "result") turn.result = data;
      else if (kind === "error") throw new Error(data.detail);
      render();
    }
  }
}

$("chat-form").addEventListener("submit", async event => {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  $("error").textContent = "";
  $("send").disabled = true;
  const turn = {question};
  turns.push(turn);
  render();
  $("question").value = "";
  try {
    await ask(turn, {question, mode: $("mode").value, model: $("model").value, guess: $("guess").checked});
  } catch (error) {
    $("error").textContent = error.message;
    turns.splice(turns.indexOf(turn), 1);
    render();
  } finally {
    $("send").disabled = false;
  }
});

$("clear").addEventListener("click", () => { turns.length = 0; render(); });
render();
