// The chat page: questions and streamed answers with their citations. The server keeps the conversation's
// turns (a follow-up's "it" is read with them); its id is kept in localStorage, so a new tab reopens it.
"use strict";

const $ = id => document.getElementById(id);
const KEY = "graphwright-conversation";
const turns = [];

gw.api("/api/info").then(info => gw.fill($("model"), info.models)).catch(error => { $("error").textContent = error.message; });

function turnView(turn) {
  const r = turn.result;
  const answer = !r ? (turn.partial || "…")
    : r.nothing ? `The graph holds nothing about ${r.nothing}.`
    : r.error ? `no answer: ${r.error}` : r.answer;
  const note = r && !r.nothing && !r.supported && r.model_answer
    ? gw.el("p", {className: "muted"}, `The model answered "${r.model_answer}", which nothing it cites holds.`)
    : r && !r.nothing && !r.supported && !r.error ? gw.el("p", {className: "muted"}, "Not supported by what the graph holds.")
    : null;
  const asked = r && r.asked && r.asked !== turn.question
    ? gw.el("p", {className: "muted"}, `asked as: ${r.asked}`) : null;
  const cited = r ? (r.citations || []).map(c => gw.el("li", {}, `[${c.id}] ${c.text}`,
    c.documents.length ? gw.el("span", {className: "muted"},
      `  (${c.documents.map(d => (r.document_names || {})[d] || d).join(", ")})`) : null)) : [];
  return gw.el("div", {className: "turn"},
    gw.el("p", {className: "question"}, turn.question), asked,
    gw.el("div", {className: "answer"}, answer), note,
    cited.length ? gw.el("ol", {className: "citations"}, cited) : null);
}

function render() {
  gw.show($("turns"), turns.map(turnView));
}

// a conversation this browser had: its turns as the server kept them
async function reopen() {
  const id = localStorage.getItem(KEY);
  if (!id) return;
  try {
    const saved = await gw.api(`/api/chat/${id}`);
    turns.push(...saved.turns.map(t => ({question: t.question,
      result: {answer: t.answer, supported: t.supported, asked: t.asked, citations: t.citations || []}})));
    render();
  } catch (error) { localStorage.removeItem(KEY); }
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
      else if (kind === "result") { turn.result = data; localStorage.setItem(KEY, data.conversation); }
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
    await ask(turn, {question, mode: $("mode").value, model: $("model").value, guess: $("guess").checked,
                     conversation: localStorage.getItem(KEY) || undefined});
  } catch (error) {
    $("error").textContent = error.message;
    turns.splice(turns.indexOf(turn), 1);
    render();
  } finally {
    $("send").disabled = false;
  }
});

$("clear").addEventListener("click", () => { turns.length = 0; localStorage.removeItem(KEY); render(); });
render();
reopen();
