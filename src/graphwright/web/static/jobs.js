// The jobs page: submit texts, follow every job live (server-sent events), see each document's fate.
"use strict";

const $ = id => document.getElementById(id);
let selectedJob = null;
let storeVersion = -1;

async function loadChoices() {
  const info = await gw.api("/api/info");
  gw.fill($("system"), info.systems);
  $("system").value = info.default_system;
  gw.fill($("model"), info.models);
  gw.fill($("kb"), info.kbs);
}

$("submit").addEventListener("submit", async event => {
  event.preventDefault();
  $("submit-error").textContent = "";
  $("run").disabled = true;
  try {
    const job = await gw.api("/api/jobs", {method: "POST", body: new FormData($("submit"))});
    $("text").value = "";
    $("urls").value = "";
    $("files").value = "";
    $("dropped").textContent = "";
    showJob(job.id);
  } catch (error) {
    $("submit-error").textContent = error.message;
  } finally {
    $("run").disabled = false;
  }
});

// files dropped anywhere on the zone become the form's files
const drop = $("drop");
drop.addEventListener("dragover", event => { event.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", event => {
  event.preventDefault();
  drop.classList.remove("over");
  $("files").files = event.dataTransfer.files;
  $("dropped").textContent = `${event.dataTransfer.files.length} file(s) ready`;
});

$("cancel").addEventListener("click", async () => {
  try {
    await gw.api(`/api/jobs/${encodeURIComponent(selectedJob)}/cancel`, {method: "POST"});
  } catch (error) {
    $("job-error").textContent = error.message;
  }
});

function renderJobs(jobs) {
  $("jobs").tBodies[0].replaceChildren(...jobs.map(job => {
    const finished = job.counts.ok + job.counts.skipped + job.counts.failed;
    return gw.el("tr", {className: "clickable" + (job.id === selectedJob ? " selected" : ""), dataset: {job: job.id},
                        onclick: () => showJob(job.id)},
      gw.el("td", {}, job.id),
      gw.el("td", {className: "state-" + (job.counts.failed && job.state === "done" ? "failures" : job.state)},
            job.label + (job.restarts ? ` (resumed ×${job.restarts})` : "")),
      gw.el("td", {}, gw.el("progress", {max: job.total || 1, value: finished}),
            ` ${finished}/${job.total}` + (job.counts.failed ? `, ${job.counts.failed} failed` : "")),
      gw.el("td", {}, job.system), gw.el("td", {}, job.model),
      gw.el("td", {}, job.state === "done" ? job.triples : ""), gw.el("td", {}, job.state === "done" ? job.tokens : ""),
      gw.el("td", {}, job.seconds === null ? "" : `${job.seconds} s`));
  }));
}

// a pending document's stage while it runs ("extracting part 2 of 5", "linking", "storing"); "stored" once done
function documentState(job, d) {
  if (d.status === "pending") return d.stage || (job.state === "running" ? "waiting" : "queued");
  return d.status === "ok" ? "stored" : d.status;
}

async function showJob(id) {
  selectedJob = id;
  const job = await gw.api(`/api/jobs/${encodeURIComponent(id)}`);
  if (id !== selectedJob) return;  // another job was chosen (or submitted) while this one was fetched
  $("job").hidden = false;
  $("job-id").textContent = `${job.id} · ${job.label}`;
  $("job-error").textContent = job.error || "";
  $("cancel").hidden = !["queued", "running"].includes(job.state);
  $("job-documents").tBodies[0].replaceChildren(...job.documents.map(d => gw.el("tr", {},
    gw.el("td", {}, d.position + 1),
    gw.el("td", {}, ["ok", "skipped"].includes(d.status) && d.document_id ? graphLink(d.document_id, job.system, d.name) : d.name),
    gw.el("td", {className: "status-" + d.status}, documentState(job, d)), gw.el("td", {}, d.status === "ok" ? d.triples : ""),
    gw.el("td", {}, d.reason || ""))));
  for (const row of $("jobs").tBodies[0].rows) row.classList.toggle("selected", row.dataset.job === id);
}

// the graph page with its filters set to one document (and one system's run of it)
function graphLink(documentId, system, text) {
  const params = new URLSearchParams({document: documentId});
  if (system) params.set("system", system);
  return gw.el("a", {href: "/graph?" + params, className: "graph-link", title: "its facts on the graph page"}, text);
}

async function loadDocuments() {
  const runs = await gw.api("/api/documents");
  $("documents").tBodies[0].replaceChildren(...runs.map(r => gw.el("tr", {},
    gw.el("td", {className: "iri"}, r.document_id), gw.el("td", {}, graphLink(r.document_id, r.system, r.source || "graph")),
    gw.el("td", {}, r.system),
    gw.el("td", {className: "status-" + r.status}, r.status), gw.el("td", {}, r.triples), gw.el("td", {}, r.entities),
    gw.el("td", {}, r.reason || ""),
    gw.el("td", {},
      gw.el("button", {type: "button", className: "secondary reextract", title: "extract it again with the system, model and settings chosen above",
                       onclick: () => reextract(r)}, "re-extract"), " ",
      gw.el("button", {type: "button", className: "delete", onclick: () => deleteDocument(r)}, "delete")))));
}

// the stored text again, with the system, model, KB and settings chosen in the form above
async function reextract(run) {
  try {
    const job = await gw.postJson(`/api/documents/${encodeURIComponent(run.document_id)}/extract`,
      {system: $("system").value, model: $("model").value, kb: $("kb").value, settings: JSON.parse($("settings").value || "{}")});
    showJob(job.id);
  } catch (error) {
    $("submit-error").textContent = error.message;
  }
}

// the document and everything derived from it: every system's facts, its text, its part of the grown graph
async function deleteDocument(run) {
  const name = run.source || run.document_id;
  if (!confirm(`Delete ${name} and every fact, export line and grown-graph edge that comes from it?`)) return;
  try {
    await gw.api(`/api/documents/${encodeURIComponent(run.document_id)}`, {method: "DELETE"});
  } catch (error) {
    $("job-error").textContent = error.message;
  }
  loadDocuments();
}

function follow() {
  const events = new EventSource("/api/events");
  events.addEventListener("open", () => { $("live").textContent = "· live"; });
  events.addEventListener("error", () => { $("live").textContent = "· reconnecting…"; });
  events.addEventListener("jobs", async message => {
    const payload = JSON.parse(message.data);
    renderJobs(payload.jobs);
    if (selectedJob) await showJob(selectedJob);
    if (payload.store_version !== storeVersion) {
      storeVersion = payload.store_version;
      await loadDocuments();
    }
  });
}

loadChoices().catch(error => { $("submit-error").textContent = error.message; });
loadDocuments();
follow();
