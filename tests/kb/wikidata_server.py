"""A stand-in for the Wikidata Action API and SPARQL endpoint on 127.0.0.1.

The API answers canned JSON; the SPARQL endpoint really executes each query on a small
pyoxigraph store, so a badly escaped query fails here exactly as it would on Wikidata.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pyoxigraph as ox

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
TRICKY_LABEL = "Foo \"bar\" } UNION { ?x ?p ?o } \\ 'baz'"


def _item(qid: str, label: str, description: str = "", aliases=(), claims=None, **extra) -> dict:
    return {
        "id": qid,
        "type": "property" if qid.startswith("P") else "item",
        "labels": {"en": {"language": "en", "value": label}},
        "descriptions": {"en": {"language": "en", "value": description}} if description else {},
        "aliases": {"en": [{"language": "en", "value": a} for a in aliases]} if aliases else {},
        "claims": claims or {},
        **extra,
    }


def _claim(pid: str, value: str, qualifiers: dict | None = None) -> dict:
    snak = {
        "snaktype": "value",
        "property": pid,
        "datavalue": {"value": {"entity-type": "item", "id": value}, "type": "wikibase-entityid"},
    }
    st = {"mainsnak": snak, "type": "statement", "rank": "normal"}
    if qualifiers:
        st["qualifiers"] = {
            q: [{"snaktype": "value", "property": q, "datavalue": {"value": {"id": v}}}] for q, v in qualifiers.items()
        }
    return st


ENTITIES = {
    "Q2685": _item(
        "Q2685", "Arnold Schwarzenegger", "Austrian-American actor", ["Arnie"], {"P31": [_claim("P31", "Q5")]}
    ),
    "Q5": _item("Q5", "human", "common name of Homo sapiens"),
    "Q83396": _item("Q83396", "Eleanor Roosevelt", "First Lady of the United States"),
    "Q29552": _item("Q29552", "Democratic Party", "political party in the United States"),
    "P102": _item(
        "P102",
        "member of political party",
        "the political party of which a person is a member",
        ["party"],
        {
            "P1647": [_claim("P1647", "P463")],
            "P1855": [_claim("P1855", "Q83396", {"P102": "Q29552"})],
            "P2302": [
                _claim("P2302", "Q21503250", {"P2308": "Q5"}),  # subject type: human
                _claim("P2302", "Q21510865", {"P2308": "Q7278"}),  # value type: party
                _claim("P2302", "Q19474404"),
            ],
        },  # single-value: not a type constraint
        datatype="wikibase-item",
    ),
    "P463": _item(
        "P463",
        "member of",
        "organization to which the subject belongs",
        [],
        {"P1647": [_claim("P1647", "P361")]},
        datatype="wikibase-item",
    ),
    "P361": _item("P361", "part of", "object of which the subject is a part", datatype="wikibase-item"),
    "P4100": _item(
        "P4100",
        "parliamentary group",
        "parliamentary group to which a member belongs",
        {},
        {"P1647": [_claim("P1647", "P102")]},
        datatype="wikibase-item",
    ),
    "Q999": _item("Q999", TRICKY_LABEL, "an item whose label tries to break out of a SPARQL string"),
}

SEARCH = {  # (search, type) -> wbsearchentities results
    ("Arnold Schwarzenegger", "item"): [
        {
            "id": "Q2685",
            "label": "Arnold Schwarzenegger",
            "description": "Austrian-American actor",
            "aliases": ["Arnie"],
            "match": {"type": "label", "language": "en", "text": "Arnold Schwarzenegger"},
        },
        {
            "id": "Q901541",
            "label": "Patrick Schwarzenegger",
            "description": "American actor",
            "match": {"type": "label", "language": "en", "text": "Patrick Schwarzenegger"},
        },
    ],
    ("Arnie", "item"): [
        {
            "id": "Q2685",
            "label": "Arnold Schwarzenegger",
            "description": "Austrian-American actor",
            "match": {"type": "alias", "language": "en", "text": "Arnie"},
        }
    ],
    ("member of political party", "property"): [
        {
            "id": "P102",
            "label": "member of political party",
            "datatype": "wikibase-item",
            "description": "the political party of which a person is a member",
            "match": {"type": "label", "language": "en", "text": "member of political party"},
        }
    ],
}
FULLTEXT = {"the party a politician belongs to": ["Property:P102", "Property:P463"]}


def make_store() -> ox.Store:
    store = ox.Store()
    nn, lit = ox.NamedNode, ox.Literal
    for rid, ent in ENTITIES.items():
        store.add(ox.Quad(nn(WD + rid), nn(RDFS_LABEL), lit(ent["labels"]["en"]["value"], language="en")))
        for a in ent.get("aliases", {}).get("en", []):
            store.add(ox.Quad(nn(WD + rid), nn(SKOS_ALT), lit(a["value"], language="en")))
    for s, p, o in [
        ("Q2685", "P31", "Q5"),
        ("Q5", "P279", "Q215627"),
        ("Q215627", "P279", "Q795052"),
        ("P102", "P1647", "P463"),
        ("P463", "P1647", "P361"),
        ("P4100", "P1647", "P102"),
    ]:
        store.add(ox.Quad(nn(WD + s), nn(WDT + p), nn(WD + o)))
    return store


class FakeWikidata:
    """Context manager: ``api_url``/``sparql_url`` to point WikidataKB at; ``requests`` records calls."""

    def __init__(self, fail_first: int = 0):
        self.store = make_store()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.fail_first = fail_first
        self.sparql_errors: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def _params(self) -> dict[str, str]:
                query = urlparse(self.path).query
                if self.command == "POST":
                    query = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                return {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}

            def _send(self, status: int, body: bytes, ctype: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _handle(self):
                params = self._params()
                path = urlparse(self.path).path
                outer.requests.append((path, params))
                if outer.fail_first > 0:
                    outer.fail_first -= 1
                    return self._send(503, b"busy")
                if path == "/sparql":
                    try:
                        result = outer.store.query(params["query"])
                    except SyntaxError as exc:
                        outer.sparql_errors.append(str(exc))
                        return self._send(400, str(exc).encode(), "text/plain")
                    body = result.serialize(format=ox.QueryResultsFormat.JSON)
                    return self._send(200, body, "application/sparql-results+json")
                if path == "/w/api.php":
                    return self._send(200, json.dumps(outer.api(params)).encode())
                return self._send(404, b"not found", "text/plain")

            do_GET = _handle
            do_POST = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        host, port = self.server.server_address[:2]
        self.api_url = f"http://{host}:{port}/w/api.php"
        self.sparql_url = f"http://{host}:{port}/sparql"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def api(self, params: dict[str, str]) -> dict:
        action = params.get("action")
        if action == "wbsearchentities":
            return {"search": SEARCH.get((params["search"], params["type"]), []), "success": 1}
        if action == "wbgetentities":
            ents = {}
            for i in params["ids"].split("|"):
                ents[i] = ENTITIES.get(i, {"id": i, "missing": ""})
            return {"entities": ents, "success": 1}
        if action == "query" and params.get("list") == "search":
            titles = FULLTEXT.get(params["srsearch"], [])
            return {"query": {"search": [{"ns": 120, "title": t} for t in titles]}}
        return {"error": {"code": "badvalue", "info": f"unsupported action {action}"}}

    def __enter__(self) -> FakeWikidata:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
