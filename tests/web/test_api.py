"""The HTTP API with httpx against the app (its lifespan, job queue and store are real; the model is
scripted): jobs from upload to stored graph, what is refused and why, queries, exports and questions."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import networkx as nx
import pytest
from fastapi.testclient import TestClient

from graphwright.web.app import create_app
from tests.support import documents
from tests.support.site import site
from tests.support.web_server import EVIL, SENTENCE, wait_for_job


def submit(client, settings, files=(), text="", **form):
    data = {"system": "agentre.zeroshot", "kb": "none", "settings": json.dumps(settings), "text": text, **form}
    return client.post("/api/jobs", data=data, files=[("files", f) for f in files])


def finished(client, response):
    assert response.status_code == 202, response.text
    return wait_for_job(lambda path: client.get(path).json(), response.json()["id"])


def test_info_offers_the_served_choices(client):
    info = client.get("/api/info").json()
    assert "agentre.zeroshot" in info["systems"] and info["models"] == ["scripted"]
    assert info["default_system"] == "facts" and "facts" in info["systems"]
    assert info["kbs"] == ["default", "none"] and "graphml" in info["export_formats"]


def test_a_job_runs_uploads_and_pasted_text_into_the_store(client, settings):
    files = [
        ("a.txt", SENTENCE.encode(), "text/plain"),
        ("b.txt", ("Note 2 .\r\n" + SENTENCE + "\r\n").encode(), "text/plain"),
    ]  # Windows line ends kept
    job = finished(client, submit(client, settings, files, text="Note 3 . " + SENTENCE, name="pasted", concurrency="2"))
    assert job["state"] == "done" and job["counts"] == {"pending": 0, "ok": 3, "skipped": 0, "failed": 0}
    assert [d["name"] for d in job["documents"]] == ["a.txt", "b.txt", "pasted"]
    assert all(d["triples"] == 2 for d in job["documents"]) and job["triples"] == 6
    runs = client.get("/api/documents").json()
    assert sorted(r["source"] for r in runs) == ["a.txt", "b.txt", "pasted"] and {r["status"] for r in runs} == {"ok"}

    graph = client.get("/api/graph").json()
    work = next(e for e in graph["edges"] if e["label"] == "Work_For")
    assert len(work["support"]) == 3 and all(s["evidence"].endswith(SENTENCE) for s in work["support"])
    labels = {n["id"]: n["label"] for n in graph["nodes"]}
    assert (labels[work["source"]], labels[work["target"]]) == ("John Smith", "Acme Corp")


def test_the_same_text_again_is_skipped_not_redone(client, settings, model_server):
    finished(client, submit(client, settings, text=SENTENCE))
    calls = len(model_server.requests)
    job = finished(client, submit(client, settings, text=SENTENCE))
    assert job["documents"][0]["status"] == "skipped" and len(model_server.requests) == calls


def test_a_job_runs_the_system_its_request_built_to_check_the_settings(client, settings, monkeypatch):
    import graphwright.assembly as assembly

    built, make = [], assembly.make_system
    monkeypatch.setattr(assembly, "make_system", lambda *args, **kwargs: built.append(args[0]) or make(*args, **kwargs))
    job = finished(client, submit(client, settings, text=SENTENCE))
    assert job["state"] == "done" and job["triples"] == 2
    assert built == [job["system"]]  # built once: the request's check, not again by the runner


def test_a_file_that_is_not_text_fails_with_its_reason_and_the_others_run(client, settings):
    files = [
        ("photo.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" * 20, "image/jpeg"),
        ("good.txt", SENTENCE.encode(), "text/plain"),
    ]
    job = finished(client, submit(client, settings, files))
    by_name = {d["name"]: d for d in job["documents"]}
    assert by_name["good.txt"]["status"] == "ok"
    assert by_name["photo.jpg"]["status"] == "failed" and "binary" in by_name["photo.jpg"]["reason"]
    assert "this app reads text, PDF, Word (.docx) and HTML files" in by_name["photo.jpg"]["reason"]


def test_a_refused_file_is_explained_in_the_browsers_terms_and_a_failed_only_job_says_so(client, settings):
    files = [("notes.txt", "Café Nordlys opened in Tromsø.".encode("latin-1"), "text/plain")]  # not UTF-8
    job = finished(client, submit(client, settings, files))
    reason = job["documents"][0]["reason"]
    assert "is not valid utf-8" in reason and "Save it as UTF-8 text" in reason and "--encoding" not in reason
    assert job["label"] == "done, 1 of 1 failed"


def test_web_addresses_are_fetched_by_the_server_and_each_failure_says_why(client, config, settings):
    answers = {"/news": (200, {"Content-Type": "text/html; charset=utf-8"}, documents.html([SENTENCE]))}
    with site(answers) as url:
        lines = f"{url}/news\n\n{url}/gone\nnews.example.org/article\n{url}/news\n"  # blank and repeated lines
        job = finished(client, submit(client, settings, urls=lines))
        by_name = {d["name"]: d for d in job["documents"]}
        assert list(by_name) == [f"{url}/news", f"{url}/gone", "news.example.org/article"]
        assert by_name[f"{url}/news"]["status"] == "ok" and by_name[f"{url}/news"]["triples"] == 2
        assert "HTTP 404" in by_name[f"{url}/gone"]["reason"]
        assert "starts with http:// or https://" in by_name["news.example.org/article"]["reason"]
        assert [r["source"] for r in client.get("/api/documents").json()] == [f"{url}/news"]

        token = "a-long-enough-test-token-123"  # served to others, as `serve --host 0.0.0.0 --token ...` is
        shared = replace(
            config,
            store=config.store.with_name("shared-store"),
            data=config.data.with_name("shared"),
            loopback_only=False,
            token=token,
        )
        with TestClient(
            create_app(shared), base_url="http://192.0.2.10:8000", headers={"Authorization": f"Bearer {token}"}
        ) as other:
            job = finished(other, submit(other, settings, urls=f"{url}/news"))
        assert "local or private address" in job["documents"][0]["reason"]


@pytest.mark.parametrize(
    "form, message",
    [
        ({"system": "no.such.system"}, "no.such.system"),
        ({"model": "gpt-9"}, "not served here"),
        ({"kb": "elsewhere"}, "not served here"),
        ({"settings": "{not json"}, "JSON object"),
        ({"settings": json.dumps({"mode": "sideways"})}, "mode"),
        ({"concurrency": "0"}, "greater than or equal to 1"),
    ],
)
def test_a_wrong_choice_is_refused_before_the_job_exists(client, settings, form, message):
    data = {"system": "agentre.zeroshot", "kb": "none", "settings": json.dumps(settings), "text": SENTENCE, **form}
    response = client.post("/api/jobs", data=data)
    assert response.status_code in (400, 422) and message in response.text  # 422: FastAPI's own validation
    assert client.get("/api/jobs").json() == []


def test_nothing_to_extract_and_too_large_uploads_are_refused(client, settings):
    assert submit(client, settings).status_code == 400
    big = ("big.txt", b"x" * (80 * 1024), "text/plain")  # the test server's limit is 64 KiB
    response = submit(client, settings, [big])
    assert response.status_code == 413 and "limit" in response.json()["detail"]


def test_sparql_reads_and_refuses_updates(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    rows = client.post("/api/sparql", json={"query": "SELECT ?l WHERE { ?s rdfs:label ?l } ORDER BY ?l"}).json()
    assert rows["columns"] == ["l"] and "Acme Corp" in [r["l"] for r in rows["rows"]]
    for update in (
        "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
        "PREFIX x: <urn:x#>\n DELETE WHERE { ?s ?p ?o }",
        "drop all",
    ):
        response = client.post("/api/sparql", json={"query": update})
        assert response.status_code == 403 and "read-only" in response.json()["detail"]
    assert client.post("/api/sparql", json={"query": "SELECT WHERE {"}).status_code == 400
    after = client.post("/api/sparql", json={"query": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"}).json()
    assert int(after["rows"][0]["n"]) > 0  # nothing was deleted


def test_a_runaway_sparql_query_is_stopped_with_a_503_and_the_server_goes_on(config, settings, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "0")
    with TestClient(create_app(replace(config, sparql_seconds=1.0)), base_url="http://127.0.0.1:8000") as client:
        finished(client, submit(client, settings, text=SENTENCE))
        # COUNT gives no row before the whole join is done, and every quad with every other eight times
        # over is more rows than any machine counts in a second: the time limit is met first on any machine
        every = " ".join(f"GRAPH ?g{i} {{ ?s{i} ?p{i} ?o{i} }}" for i in range(8))
        count = f"SELECT (COUNT(*) AS ?n) WHERE {{ {every} }}"
        for stopped in (
            client.post("/api/sparql", json={"query": count}),
            client.get("/sparql", params={"query": count}),
        ):
            assert stopped.status_code == 503 and "1 s limit" in stopped.json()["detail"]
        rows = client.post("/api/sparql", json={"query": "SELECT ?l WHERE { ?s rdfs:label ?l }"}).json()
        assert "Acme Corp" in [r["l"] for r in rows["rows"]] and rows["truncated"] is False


def test_a_sparql_answer_over_the_size_limit_is_refused_with_a_400(config, settings):
    small = replace(config, sparql_max_bytes=2_000)  # a few quads' worth; the time limit stays far away
    with TestClient(create_app(small), base_url="http://127.0.0.1:8000") as client:
        finished(client, submit(client, settings, text=SENTENCE))
        refused = client.get("/sparql", params={"query": "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }"})
        assert refused.status_code == 400 and "add a LIMIT" in refused.json()["detail"]
        labels = client.get("/sparql", params={"query": "SELECT ?l WHERE { ?s rdfs:label ?l } LIMIT 2"})
        assert labels.status_code == 200 and len(labels.json()["results"]["bindings"]) == 2


def test_the_sparql_protocol_endpoint_answers_other_tools(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    query = "SELECT ?l WHERE { ?s rdfs:label ?l }"
    got = client.get("/sparql", params={"query": query})
    assert got.headers["content-type"].startswith("application/sparql-results+json")
    assert {"type": "literal", "value": "Oslo"} in [b["l"] for b in got.json()["results"]["bindings"]]
    posted = client.post("/sparql", content=query, headers={"Content-Type": "application/sparql-query"})
    assert posted.json() == got.json()
    refused = client.post("/sparql", data={"query": "CLEAR ALL"})
    assert refused.status_code == 403


def test_a_fact_two_documents_state_is_one_row_of_the_default_graph(client, settings):
    finished(client, submit(client, settings, text="Note 1 . " + SENTENCE))
    finished(client, submit(client, settings, text="Note 2 . " + SENTENCE))
    count = {"query": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o . ?p rdfs:label ?l FILTER(?l = 'Work_For') }"}
    rows = client.get("/sparql", params={"query": "SELECT ?s ?o WHERE { ?s ?p ?o . ?p rdfs:label 'Work_For' }"})
    assert len(rows.json()["results"]["bindings"]) == 1
    per_graph = "SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o . ?p rdfs:label 'Work_For' } }"
    assert len(client.post("/api/sparql", json={"query": per_graph}).json()["rows"]) == 2, "each run keeps its own"
    assert client.get("/sparql", params=count).json()["results"]["bindings"][0]["n"]["value"] == "1"


def test_asking_the_grown_graph_before_any_merge_says_how_to_grow_one(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    response = client.post("/api/sparql", json={"query": "SELECT * WHERE { ?s ?p ?o }", "grown": True})
    assert response.status_code == 409 and "graph merge" in response.json()["detail"]
    assert client.post("/api/sparql", json={"query": "SELECT * WHERE { ?s ?p ?o }"}).json()["rows"]


def test_the_sparql_protocol_endpoint_answers_in_the_format_asked_for(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    select = {"query": "SELECT ?l WHERE { ?s rdfs:label ?l } ORDER BY ?l"}
    csv = client.get("/sparql", params=select, headers={"Accept": "text/csv"})
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.splitlines()[0] == "l"
    assert "Oslo" in csv.text.splitlines()
    tsv = client.get("/sparql", params=select, headers={"Accept": "text/tab-separated-values"})
    assert tsv.text.splitlines()[0] == "?l" and '"Oslo"' in tsv.text.splitlines()
    xml = client.get("/sparql", params=select, headers={"Accept": "application/sparql-results+xml"})
    assert (
        xml.headers["content-type"].startswith("application/sparql-results+xml")
        and "<literal>Oslo</literal>" in xml.text
    )
    ranked = client.get("/sparql", params=select, headers={"Accept": "text/csv;q=0.5, application/sparql-results+xml"})
    assert ranked.headers["content-type"].startswith("application/sparql-results+xml"), "q decides"
    anything = client.get("/sparql", params=select, headers={"Accept": "*/*"})
    assert anything.headers["content-type"].startswith("application/sparql-results+json")
    construct = {"query": "CONSTRUCT { ?s rdfs:label ?l } WHERE { ?s rdfs:label ?l }"}
    turtle = client.get("/sparql", params=construct, headers={"Accept": "text/turtle"})
    assert turtle.headers["content-type"].startswith("text/turtle") and '"Oslo"' in turtle.text
    assert client.get("/sparql", params=construct).headers["content-type"].startswith("application/n-triples")


def test_exports_come_as_files(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    turtle = client.get("/api/export", params={"format": "turtle"})
    assert turtle.headers["content-type"].startswith("text/turtle") and b"Acme Corp" in turtle.content
    assert 'filename="graphwright.ttl"' in turtle.headers["content-disposition"]
    graphml = client.get("/api/export", params={"format": "graphml"})
    assert nx.read_graphml(io.BytesIO(graphml.content), force_multigraph=True).number_of_edges() == 2
    assert client.get("/api/export", params={"format": "neo4j"}).content[:2] == b"PK"
    assert client.get("/api/export", params={"format": "docx"}).status_code == 400


def test_graph_filters_and_neighbourhoods(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    finished(client, submit(client, settings, text=f"{EVIL} lives in Oslo ."))
    everything = client.get("/api/graph").json()
    assert everything["total"] == 3
    assert client.get("/api/graph", params={"q": "acme"}).json()["total"] == 1
    assert client.get("/api/graph", params={"limit": 1}).json()["edges"][0]["label"] in ("Work_For", "Live_In")
    assert client.get("/api/graph", params={"min_confidence": 1.0}).json()["total"] <= 3
    facets = client.get("/api/graph/facets").json()
    assert len(facets["documents"]) == 2 and facets["systems"] == ["agentre.zeroshot"]
    oslo = next(n for n in everything["nodes"] if n["label"] == "Oslo")
    around = client.get(f"/api/graph/nodes/{oslo['id']}/neighbours").json()
    assert around["total"] == 2 and {n["label"] for n in around["nodes"]} == {"Oslo", "John Smith", EVIL}
    assert client.get("/api/graph/nodes/n999/neighbours").status_code == 404


def test_a_document_deleted_leaves_the_store_the_graph_page_and_the_exports(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    finished(client, submit(client, settings, text=f"{EVIL} lives in Oslo ."))
    assert client.get("/api/graph").json()["total"] == 3
    runs = client.get("/api/documents").json()
    gone = next(r["document_id"] for r in runs if r["triples"] == 1)
    deleted = client.delete(f"/api/documents/{gone}")
    assert deleted.status_code == 200 and deleted.json()["runs"] == 1
    assert [r["document_id"] for r in client.get("/api/documents").json()] == [
        r["document_id"] for r in runs if r["document_id"] != gone
    ]
    assert client.get("/api/graph").json()["total"] == 2, "the graph page follows"
    assert gone not in client.get("/api/export", params={"format": "nquads", "provenance": True}).text
    assert client.delete(f"/api/documents/{gone}").status_code == 404


def test_ask_answers_from_the_graph_with_citations(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    answer = client.post("/api/ask", json={"question": "Who does John Smith work for?", "kb": "none"}).json()
    assert answer["answer"] == "Acme Corp" and answer["supported"] and answer["citations"]
    assert client.post("/api/ask", json={"question": "x", "mode": "sideways"}).status_code == 422
    passages = client.post(
        "/api/ask", json={"question": "Who does John Smith work for?", "kb": "none", "mode": "passages"}
    ).json()
    assert [s["text"] for s in passages["sources"] if s["id"].startswith("P")] == [SENTENCE], "the job's text, whole"
    named = passages["document_names"]
    assert named and all(named.get(d) for s in passages["sources"] for d in s["documents"]), (
        "each source's file by name"
    )
    unknown = {"question": "Who founded Tidewater Instruments?", "kb": "none", "mode": "passages"}
    honest = client.post("/api/ask", json=unknown).json()
    assert honest["nothing"] == "Tidewater Instruments" and honest["answer"] == "" and honest["usage"]["llm_calls"] == 0
    guessed = client.post("/api/ask", json={**unknown, "guess": True}).json()
    assert guessed["nothing"] is None and guessed["answer"] == "Acme Corp" and guessed["usage"]["llm_calls"] == 1


def test_events_stream_the_jobs(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    with client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        assert next(lines) == "event: jobs"
        payload = json.loads(next(lines).removeprefix("data: "))
    assert payload["jobs"][0]["state"] == "done" and payload["store_version"] >= 1


def test_pages_and_api_docs_are_served_from_the_package(client):
    for path in ("/", "/graph", "/query", "/ask", "/chat"):
        page = client.get(path)
        assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
        assert "http" not in "".join(line for line in page.text.splitlines() if "src=" in line or "href=" in line)
    docs = client.get("/docs").text
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in docs and "cdn" not in docs
    assert '<a href="/">' in docs.split("swagger-ui-bundle.js")[0], "the API docs lead back to the app"
    assert client.get("/static/vendor/cytoscape/cytoscape.min.js").status_code == 200
    assert "/api/jobs" in client.get("/openapi.json").json()["paths"]


def test_an_uploaded_pdf_is_read_page_by_page_and_its_facts_say_their_page(client, settings):
    from tests.support import documents

    pages = [[f"Page {n} of the harbour report has nothing to say about people."] for n in range(1, 11)]
    pages[6] = [SENTENCE]  # the facts are on page 7
    files = [
        ("report.pdf", documents.pdf(pages), "application/pdf"),
        ("scan.pdf", documents.scanned_pdf(), "application/pdf"),
    ]
    job = finished(client, submit(client, settings, files))
    assert job["counts"]["ok"] == 1 and job["counts"]["failed"] == 1
    scan = next(d for d in job["documents"] if d["name"] == "scan.pdf")
    assert "no text layer" in scan["reason"] and "OCR" in scan["reason"]
    edges = client.get("/api/graph").json()["edges"]
    assert edges and all(s.get("page") == 7 for e in edges for s in e["support"]), json.dumps(edges[0]["support"])
    nquads = client.get("/api/export", params={"format": "nquads", "provenance": True}).text
    assert 'evidencePage> "7"' in nquads

    # extracted again from the stored text (pages kept), as a job, not skipped as already stored
    document_id = next(d["document_id"] for d in job["documents"] if d["name"] == "report.pdf")
    again = client.post(
        f"/api/documents/{document_id}/extract", json={"system": "agentre.zeroshot", "kb": "none", "settings": settings}
    )
    redone = finished(client, again)
    assert redone["counts"]["ok"] == 1 and redone["documents"][0]["document_id"] == document_id
    assert all(s.get("page") == 7 for e in client.get("/api/graph").json()["edges"] for s in e["support"])
    assert client.post("/api/documents/doc-nope/extract", json={"system": "agentre.zeroshot"}).status_code == 404


def test_entities_merged_renamed_and_a_fact_removed_over_http_then_undone(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    nodes = {n["label"]: n for n in client.get("/api/graph").json()["nodes"]}
    smith, oslo = nodes["John Smith"]["iri"], nodes["Oslo"]["iri"]
    live_in = next(e for e in client.get("/api/graph").json()["edges"] if e["label"] == "Live_In")
    rename = client.post("/api/edits", json={"kind": "rename", "node": smith, "label": "J. Smith"}).json()
    assert {n["label"] for n in client.get("/api/graph").json()["nodes"]} >= {"J. Smith"}
    removed = client.post("/api/edits", json={"kind": "remove", "fact": [smith, live_in["iri"], oslo]}).json()
    assert client.get("/api/graph").json()["total"] == 1
    assert client.get("/api/documents").json()[0]["triples"] == 1, "the run's count follows the removal"
    assert [e["number"] for e in client.get("/api/edits").json()] == [rename["number"], removed["number"]]
    assert [e["what"] for e in client.get("/api/edits").json()][0] == "rename John Smith to 'J. Smith'", (
        "the old name, not the new one twice"
    )
    assert removed["what"] == "remove J. Smith | Live_In | Oslo", "named by label, as the graph page shows them"
    assert client.post("/api/edits", json={"kind": "merge", "source": smith, "target": smith}).status_code == 400
    assert client.post("/api/edits", json={"kind": "merge", "source": smith}).status_code == 400  # no target
    assert client.post("/api/edits", json={"kind": "remove"}).status_code == 400  # no fact
    assert client.post("/api/edits", json={"kind": "merge", "source": "urn:x", "target": smith}).status_code == 404
    assert client.post(f"/api/edits/{rename['number']}/undo").json()["undone"] is True
    assert "John Smith" in {n["label"] for n in client.get("/api/graph").json()["nodes"]}
    assert client.post(f"/api/edits/{rename['number']}/undo").status_code == 404
    client.post(f"/api/edits/{removed['number']}/undo")
    assert client.get("/api/graph").json()["total"] == 2 and client.get("/api/documents").json()[0]["triples"] == 2


def test_chat_streams_the_answer_as_it_is_written_then_the_result(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    with client.stream(
        "POST", "/api/chat", json={"question": "Who does John Smith work for?", "kb": "none", "mode": "passages"}
    ) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        blocks = "".join(stream.iter_text()).strip().split("\n\n")
    events = [
        (b.split("\n")[0].removeprefix("event: "), json.loads(b.split("\n")[1].removeprefix("data: "))) for b in blocks
    ]
    partial = [data["text"] for kind, data in events if kind == "answer"]
    assert len(partial) >= 2 and partial[-1] == "Acme Corp" and all("Acme Corp".startswith(p) for p in partial)
    kind, result = events[-1]
    assert kind == "result" and result["answer"] == "Acme Corp" and result["citations"]
    assert client.post("/api/chat", json={"question": "x", "model": "nope"}).status_code == 400


def chat_result(client, question: str, conversation: str | None = None) -> dict:
    body = {"question": question, "kb": "none", **({"conversation": conversation} if conversation else {})}
    with client.stream("POST", "/api/chat", json=body) as stream:
        blocks = "".join(stream.iter_text()).strip().split("\n\n")
    kind, data = blocks[-1].split("\n")
    assert kind == "event: result", blocks[-1]
    return json.loads(data.removeprefix("data: "))


def test_a_chat_remembers_who_it_is_about_and_supports_only_what_its_citations_hold(client, settings):
    finished(client, submit(client, settings, text=SENTENCE))
    first = chat_result(client, "Who does John Smith work for?")
    conversation = first["conversation"]
    assert first["answer"] == "Acme Corp" and first["supported"] and first["asked"] == "Who does John Smith work for?"
    second = chat_result(client, "Where does he live?", conversation)
    assert second["asked"] == "Where does John Smith live?"  # "he" is the last turn's John Smith
    assert second["answer"] == "Oslo" and second["supported"] and second["conversation"] == conversation
    third = chat_result(client, "When was his employer founded?", conversation)
    assert third["asked"] == "When was John Smith's employer founded?"
    assert not third["supported"] and third["model_answer"] == "2009"  # no cited fact says 2009
    assert third["answer"].startswith("The graph does not state this. What it holds about John Smith:")
    history = client.get(f"/api/chat/{conversation}").json()["turns"]  # what a new tab reopens
    assert [t["question"] for t in history] == [
        "Who does John Smith work for?",
        "Where does he live?",
        "When was his employer founded?",
    ]
    assert [t["supported"] for t in history] == [True, True, False] and history[0]["citations"]
    assert chat_result(client, "Where does he live?")["asked"] == "Where does he live?", "a new conversation"
    assert client.get("/api/chat/not-an-id").status_code == 404
    assert client.post("/api/chat", json={"question": "x", "conversation": "../../etc"}).status_code == 422
