"""The pages in a real browser: Playwright drives Debian's Chromium against `graphwright serve` (a child
process, scripted model). Upload a text, follow the job to its end, open the graph, click an edge and
read its evidence, run a SPARQL query, and check that a name holding <script> shows as text."""

from __future__ import annotations

import json
import shutil
import time

import pytest

from tests.support.openai_server import ScriptedOpenAIServer
from tests.support.web_server import EVIL, SENTENCE, ServeProcess, job_settings, reply

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need playwright (pip install playwright)"
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="the browser tests need Chromium: apt-get install chromium (.ci/run installs it)"
)
# Chromium as root in a sandbox-less container, with no calls home (the machine has no network)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    where = tmp_path_factory.mktemp("web")
    with ScriptedOpenAIServer(reply()) as model, ServeProcess(where, model.base_url) as serve:
        yield serve, job_settings(where)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def wait_until(page, expression: str, timeout: float = 20.0) -> None:
    """Poll ``expression`` with page.evaluate: page.wait_for_function compiles it inside the page, which
    the app's Content-Security-Policy (no eval) rightly refuses."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.1)


def click_element(page, selector_js: str) -> None:
    """A real mouse click on a Cytoscape element (drawn on a canvas) at its rendered position; on an edge,
    at the point along it farthest from every other element, so that a random layout that crosses two
    edges near a midpoint cannot put another edge under the pointer."""
    x, y = page.evaluate(f"""() => {{
        const ele = {selector_js};
        const box = document.getElementById('cy').getBoundingClientRect();
        if (!ele.isEdge()) {{
            const at = ele.renderedPosition();
            return [box.left + at.x, box.top + at.y];
        }}
        const a = ele.source().renderedPosition(), b = ele.target().renderedPosition();
        const gap = (p, q, r) => {{  // distance from p to the segment q-r
            const dx = r.x - q.x, dy = r.y - q.y, len = dx * dx + dy * dy || 1;
            const t = Math.max(0, Math.min(1, ((p.x - q.x) * dx + (p.y - q.y) * dy) / len));
            return Math.hypot(p.x - q.x - t * dx, p.y - q.y - t * dy);
        }};
        const others = ele.cy().edges().not(ele);
        let best = null;
        for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.25, 0.75]) {{
            const p = {{x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y)}};
            const clear = Math.min(Infinity,
                ...others.map(o => gap(p, o.source().renderedPosition(), o.target().renderedPosition())),
                ...ele.cy().nodes().map(n => Math.hypot(p.x - n.renderedPosition().x, p.y - n.renderedPosition().y)
                                                 - n.renderedOuterWidth() / 2));
            if (!best || clear > best.clear) best = {{p, clear}};
        }}
        return [box.left + best.p.x, box.top + best.p.y];
    }}""")
    page.mouse.click(x, y)


def test_upload_run_browse_and_query(served, page):
    serve, settings = served
    page.goto(serve.url + "/")
    page.set_input_files("#files", files=[{"name": "smith.txt", "mimeType": "text/plain", "buffer": SENTENCE.encode()}])
    page.fill("#text", f"{EVIL} lives in Oslo .")
    page.fill("#name", "<img src=x onerror=window.pwned=2>.txt")
    page.select_option("#system", "agentre.zeroshot")
    page.select_option("#kb", "none")
    page.fill("#settings", json.dumps(settings))
    page.click("#run")
    page.wait_for_selector("#jobs td.state-done", timeout=30_000)  # the job's end arrives by the event stream
    # the job's documents are fetched after the event that ends it: wait for them rather than race them
    wait_until(page, "document.querySelectorAll('#job-documents td.status-ok').length === 2")
    wait_until(
        page,
        "[...document.querySelectorAll('#documents td')].filter(td => "
        "td.textContent === '<img src=x onerror=window.pwned=2>.txt').length === 1",
    )

    page.goto(serve.url + "/graph")
    wait_until(page, "window.gwGraph && window.gwGraph.edges().length === 3")
    click_element(page, "window.gwGraph.edges().filter(e => e.data('label') === 'Work_For')[0]")
    page.wait_for_selector("#details .evidence")
    assert page.text_content("#details h2") == "John Smith — Work_For → Acme Corp"
    assert SENTENCE in page.text_content("#details .evidence")
    assert page.text_content("#details mark") == "John Smith"

    node = f"window.gwGraph.nodes().filter(n => n.data('label') === {json.dumps(EVIL)})[0]"
    width = page.evaluate(f"{node}.width()")
    click_element(page, node)
    wait_until(page, f"document.querySelector('#details h2').textContent === {json.dumps(EVIL)}")
    assert page.locator("#details script, #details b").count() == 0
    assert page.evaluate(f"{node}.selected()") and page.evaluate(f"{node}.width()") == width, (
        "a selected node keeps its size"
    )
    assert page.evaluate("document.querySelector('#document option:nth-child(2)').textContent").endswith(".txt"), (
        "documents are listed by file name"
    )

    page.goto(serve.url + "/query")
    page.fill("#query", "SELECT ?name WHERE { ?s rdfs:label ?name } ORDER BY ?name")
    page.click("#run")
    page.wait_for_selector("#results tbody tr")
    names = page.locator("#results tbody td").all_text_contents()
    assert "Acme Corp" in names and EVIL in names
    assert page.evaluate("window.pwned") is None  # no label ran as markup on any page

    page.goto(serve.url + "/")  # delete the hostile file's document: its row and its edge go
    page.wait_for_selector("#documents tbody tr")
    rows = page.locator("#documents tbody tr")
    assert rows.count() == 2
    page.once("dialog", lambda dialog: dialog.accept())
    rows.filter(has_text="<img src=x onerror=window.pwned=2>.txt").locator("button.delete").click()
    wait_until(page, "document.querySelectorAll('#documents tbody tr').length === 1")
    page.goto(serve.url + "/graph")
    wait_until(page, "window.gwGraph && window.gwGraph.edges().length === 2")
    sizes = page.evaluate("Object.fromEntries(window.gwGraph.nodes().map(n => [n.data('label'), n.width()]))")
    assert sizes["John Smith"] > sizes["Oslo"] == sizes["Acme Corp"], "a node's size follows its edges"

    # an entity merge from the graph page, then undone
    node = "window.gwGraph.nodes().filter(n => n.data('label') === {})[0]"
    click_element(page, node.format(json.dumps("Oslo")))
    page.click("#details button.edit-merge")
    page.once("dialog", lambda dialog: dialog.accept())
    click_element(page, node.format(json.dumps("Acme Corp")))
    wait_until(page, "window.gwGraph.nodes().length === 2 && document.querySelectorAll('#edits .edit').length === 1")
    assert "merge Oslo into Acme Corp" in page.text_content("#edits .edit"), "named, not by IRI, after the merge"
    page.click("#edits button.edit-undo")
    wait_until(
        page,
        "window.gwGraph.nodes().length === 3 && document.querySelector('#edits .edit').textContent.includes('undone')",
    )


def test_a_job_links_each_document_to_its_facts_on_the_graph_page(served, page):
    serve, settings = served
    page.goto(serve.url + "/")
    page.set_input_files(
        "#files", files=[{"name": "linked.txt", "mimeType": "text/plain", "buffer": ("Note 9 . " + SENTENCE).encode()}]
    )
    page.select_option("#system", "agentre.zeroshot")
    page.select_option("#kb", "none")
    page.fill("#settings", json.dumps(settings))
    page.click("#run")
    wait_until(page, "document.querySelector('#job-documents a.graph-link')", 30)
    page.click("#job-documents a.graph-link")
    wait_until(page, "location.pathname === '/graph' && document.getElementById('document').value !== ''")
    assert page.evaluate("document.getElementById('document').selectedOptions[0].textContent") == "linked.txt"
    assert page.evaluate("document.getElementById('system').value") == "agentre.zeroshot"
    wait_until(
        page,
        "window.gwGraph.edges().length > 0 && window.gwGraph.edges().every(e => e.data('support')"
        ".every(s => s.document_id === document.getElementById('document').value))",
    )


def test_the_ask_page_in_passages_mode_shows_what_the_model_read_and_cites_the_passage(served, page):
    serve, _ = served
    page.goto(serve.url + "/ask")
    wait_until(page, "document.querySelectorAll('#model option').length > 0")
    page.fill("#question", "Who does John Smith work for?")
    page.select_option("#mode", "passages")
    page.check("#notes-first")
    page.click("#run")
    # the first passages question loads the embedder: give a busy machine time
    wait_until(page, "!document.getElementById('result').hidden && !document.getElementById('run').disabled", 90)
    assert page.text_content("#answer") == "Acme Corp"
    assert page.text_content("#notes") == "The model's notes: John Smith: works for Acme Corp"
    cited = page.text_content("#citations li")
    assert SENTENCE in cited and "(smith.txt)" in cited, "the cited passage, whole, and its file by name"

    held = []  # the next question's request, held until the page has been looked at
    page.route("**/api/ask", lambda route: held.append(route))
    page.fill("#question", "Where does John Smith live?")
    page.click("#run")
    wait_until(page, "document.getElementById('run').disabled")
    assert page.evaluate("document.getElementById('result').hidden"), "no earlier answer while the next one runs"
    held[0].continue_()
    wait_until(page, "!document.getElementById('result').hidden")
    assert page.text_content("#answer") == "Oslo"


def test_updates_are_refused_on_the_sparql_page(served, page):
    serve, _ = served
    page.goto(serve.url + "/query")
    page.fill("#query", "DELETE WHERE { ?s ?p ?o }")
    page.click("#run")
    wait_until(page, "document.getElementById('error').textContent.length > 0")
    assert "read-only" in page.text_content("#error")


def test_a_chat_of_three_turns_with_citations_kept_for_the_conversation(served, page):
    serve, _ = served
    page.goto(serve.url + "/chat")
    wait_until(page, "document.querySelectorAll('#model option').length > 0")
    for n, question in enumerate(
        ["Who does John Smith work for?", "Where does John Smith live?", "Who founded Tidewater Instruments?"], 1
    ):
        page.fill("#question", question)
        page.click("#send")
        wait_until(
            page,
            f"document.querySelectorAll('#turns .turn').length === {n} && !document.getElementById('send').disabled",
        )
    answers = page.locator("#turns .turn .answer").all_text_contents()
    assert answers[:2] == ["Acme Corp", "Oslo"]
    assert answers[2] == "The graph holds nothing about Tidewater Instruments."
    assert page.locator("#turns .turn").nth(0).locator(".citations li").count() >= 1
    assert page.locator("#turns .turn").nth(2).locator(".citations li").count() == 0
    page.reload()  # the server kept the conversation: the page reopens it, citations and all
    wait_until(page, "document.querySelectorAll('#turns .turn').length === 3")
    assert page.locator("#turns .turn .answer").all_text_contents() == answers
    assert page.locator("#turns .turn").nth(0).locator(".citations li").count() >= 1
    page.fill("#question", "Where does he live?")  # a follow-up in the reopened conversation
    page.click("#send")
    wait_until(
        page, "document.querySelectorAll('#turns .turn').length === 4 && !document.getElementById('send').disabled"
    )
    assert "asked as: Where does John Smith live?" in page.locator("#turns .turn").nth(3).text_content()
    page.click("#clear")  # a new conversation
    page.reload()
    wait_until(page, "document.readyState === 'complete'")
    assert page.locator("#turns .turn").count() == 0
    assert page.evaluate("window.pwned") is None


def test_a_ten_page_pdf_dropped_on_the_jobs_page_gives_facts_with_their_page(served, page):
    import base64

    from tests.support import documents

    serve, settings = served
    pages = [[f"Page {n} of the harbour report has nothing to say about people."] for n in range(1, 11)]
    pages[6] = [SENTENCE]  # the facts are on page 7
    page.goto(serve.url + "/")
    wait_until(page, "document.querySelectorAll('#system option').length > 0")
    page.evaluate(
        """b64 => {
        const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
        const files = new DataTransfer();
        files.items.add(new File([bytes], "report.pdf", {type: "application/pdf"}));
        document.getElementById("drop").dispatchEvent(new DragEvent("drop", {dataTransfer: files, bubbles: true}));
    }""",
        base64.b64encode(documents.pdf(pages)).decode(),
    )
    assert page.text_content("#dropped") == "1 file(s) ready"
    page.select_option("#system", "agentre.zeroshot")
    page.select_option("#kb", "none")
    page.fill("#settings", json.dumps(settings))
    page.click("#run")
    wait_until(page, "[...document.querySelectorAll('#documents td')].some(td => td.textContent === 'report.pdf')", 60)
    page.goto(serve.url + "/graph")
    page.select_option("#document", label="report.pdf")
    # the filtered graph, not the one drawn before it (clicking an edge the redraw removes selects nothing)
    wait_until(
        page,
        "window.gwGraph && window.gwGraph.edges().length > 0 && window.gwGraph.edges()"
        ".every(e => e.data('support').every(s => s.page === 7))",
        60,
    )  # a busy machine redraws slowly
    click_element(page, "window.gwGraph.edges()[0]")
    page.wait_for_selector("#details .support")
    details = page.text_content("#details")
    assert "page7" in details.replace(" ", "") and "documentreport.pdf" in details.replace(" ", "")


@pytest.fixture(scope="module")
def slow_served(tmp_path_factory):
    """A server whose model takes a second and a half an answer: long enough to see a document run."""
    where = tmp_path_factory.mktemp("slow")
    with ScriptedOpenAIServer(reply(delay=1.5)) as model, ServeProcess(where, model.base_url) as serve:
        yield serve, job_settings(where)


def test_the_job_table_shows_each_document_running_and_a_job_of_refused_files_as_failed(slow_served, page):
    serve, settings = slow_served
    page.goto(serve.url + "/")
    wait_until(page, "document.querySelectorAll('#system option').length > 0")
    page.set_input_files("#files", files=[{"name": "smith.txt", "mimeType": "text/plain", "buffer": SENTENCE.encode()}])
    page.select_option("#system", "agentre.zeroshot")
    page.select_option("#kb", "none")
    page.fill("#settings", json.dumps(settings))
    page.click("#run")
    states = "[...document.querySelectorAll('#job-documents td')].map(td => td.textContent)"
    wait_until(page, f"{states}.includes('extracting')", 30)  # while the model answers
    wait_until(page, f"{states}.includes('stored')", 30)
    wait_until(page, "[...document.querySelectorAll('#jobs td')].some(td => td.textContent === 'done')")

    page.set_input_files(
        "#files",
        files=[
            {"name": "photo.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64)}
        ],
    )
    page.click("#run")
    wait_until(
        page, "[...document.querySelectorAll('#jobs td')].some(td => td.textContent === 'done, 1 of 1 failed')", 30
    )
    wait_until(
        page,
        "document.querySelector('#job-documents tbody tr') && document.querySelector("
        "'#job-documents tbody tr').textContent.includes('photo.png')",
    )  # the new job's rows, not the last
    reason = page.locator("#job-documents tbody tr").first.text_content()
    assert "this app reads text, PDF, Word (.docx) and HTML files" in reason and "--" not in reason


@pytest.fixture(scope="module", params=[20, 200], ids=lambda n: f"{n}-edges")
def sized_served(request, tmp_path_factory):
    """A server over a stored graph of 20 or 200 edges (a few hub companies, many people)."""
    from tests.support.sized_graph import fill_store

    where = tmp_path_factory.mktemp(f"graph{request.param}")
    fill_store(where / "store", request.param)
    with ScriptedOpenAIServer(reply()) as model, ServeProcess(where, model.base_url) as serve:
        yield serve, request.param


# the labels placed on the canvas, each with its shape, the element's own bounds by Cytoscape (read afresh),
# its font size on screen, and how many labels placed before it and nodes not its own it overlaps
LABELS = """() => {
  const cy = window.gwGraph, placed = cy.scratch('labels');
  cy.elements().dirtyBoundingBoxCache();
  const bodies = cy.nodes().map(n => [n.id(), n.renderedBoundingBox({includeLabels: false, includeOverlays: false})]);
  const box = b => gwLabels.rectangle((b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2, b.w, b.h);
  return placed.map(({id, shape}, i) => {
    const ele = cy.getElementById(id), own = ele.isNode() ? [id] : [];
    const bounds = ele.renderedBoundingBox({includeNodes: false, includeEdges: false, includeLabels: true});
    return {label: ele.data('label'), node: ele.isNode(), degree: ele.isNode() ? ele.degree(false) : 0,
            px: parseFloat(ele.style('font-size')) * cy.zoom(), quiet: ele.hasClass('quiet'),
            shape: [shape.x1, shape.y1, shape.x2, shape.y2], bounds: [bounds.x1, bounds.y1, bounds.x2, bounds.y2],
            overLabels: placed.slice(0, i).filter(p => gwLabels.overlap(p.shape, shape)).length,
            overNodes: bodies.filter(([n, b]) => !own.includes(n) && gwLabels.overlap(box(b), shape)).length};
  });
}"""


def placed_labels(page) -> list[dict]:
    """The labels once placement has settled (it follows the last viewport change by 150 ms)."""
    wait_until(page, "window.gwGraph && window.gwGraph.scratch('labels') && window.gwGraph.edges().length > 0")
    time.sleep(0.6)
    return page.evaluate(LABELS)


def test_labels_are_readable_and_never_overlap_at_20_and_200_edges(sized_served, page, tmp_path):
    serve, edges = sized_served
    page.goto(serve.url + "/graph")
    labels = placed_labels(page)
    nodes = page.evaluate("window.gwGraph.nodes().length")
    assert page.evaluate("window.gwGraph.edges().length") == edges
    picture = page.screenshot(path=str(tmp_path / f"graph-{edges}.png"))
    assert picture[16:24] == (1400).to_bytes(4, "big") + (900).to_bytes(4, "big"), "a PNG of the whole viewport"

    for label in labels:
        assert not label["quiet"] and label["overLabels"] == 0, label
        assert label["overNodes"] == 0 or label["node"] and label["degree"] >= 3, "only a hub's name covers nodes"
        assert label["px"] == pytest.approx(12 if label["node"] else 10, abs=0.01), "one size on screen at every zoom"
        (x1, y1, x2, y2), (bx1, by1, bx2, by2) = label["shape"], label["bounds"]
        if label["node"]:  # the shape placed holds what Cytoscape draws, and is as large unless cut by an ellipsis
            assert x1 <= bx1 + 3 and bx2 <= x2 + 3 and abs(y1 - by1) <= 3 and abs(y2 - by2) <= 3, label
            assert (x2 - x1) - (bx2 - bx1) <= 3 or x2 - x1 <= 150.5, label
        else:  # an edge's turned shape lies within Cytoscape's upright bounds of it
            assert bx1 - 4 <= x1 and x2 <= bx2 + 4 and by1 - 4 <= y1 and y2 <= by2 + 4, label
    named = [label for label in labels if label["node"]]
    if edges == 20:
        assert len(named) >= 0.9 * nodes, "nearly every name is drawn in a small graph"
        assert sum(not label["node"] for label in labels) >= 5, "and relations where their edge has room"
        return

    hubs = page.evaluate("window.gwGraph.nodes().filter(n => n.degree(false) >= 10).map(n => n.data('label'))")
    assert hubs and set(hubs) <= {label["label"] for label in named}, "every hub is named"
    assert len(named) >= 0.4 * nodes
    # zoomed in on the largest hub, the labels keep their size and nearly every name on screen is drawn
    page.evaluate(
        "() => { const cy = window.gwGraph, hub = cy.nodes().max(n => n.degree(false)).ele;"
        " cy.zoom({level: cy.zoom() * 2.5, renderedPosition: hub.renderedPosition()}); }"
    )
    closer = placed_labels(page)
    on_screen = page.evaluate("""() => { const cy = window.gwGraph, w = cy.width(), h = cy.height();
        return cy.nodes().filter(n => { const p = n.renderedPosition(); return p.x > 0 && p.y > 0 && p.x < w && p.y < h; }).length; }""")
    assert all(
        label["overLabels"] == 0 and label["px"] == pytest.approx(12 if label["node"] else 10, abs=0.01)
        for label in closer
    )
    assert sum(label["node"] for label in closer) >= 0.85 * on_screen
    assert sum(not label["node"] for label in closer) > sum(not label["node"] for label in labels), "relations appear"
    page.screenshot(path=str(tmp_path / f"graph-{edges}-closer.png"))
