"""WikidataKB against a local stand-in server (no network): API parsing, SPARQL hierarchy,
escaping of hostile labels, id validation, the on-disk response cache and retries."""

from __future__ import annotations

import pytest

from graphwright.errors import UserError
from graphwright.kb.wikidata import KBUnavailableError, WikidataKB
from tests.kb.wikidata_server import TRICKY_LABEL, FakeWikidata


@pytest.fixture()
def server():
    with FakeWikidata() as srv:
        yield srv


@pytest.fixture()
def wd(server, tmp_path):
    with WikidataKB(api_url=server.api_url, sparql_url=server.sparql_url, cache_path=tmp_path / "http.sqlite") as kb:
        yield kb


def test_wikidata_search_label_puts_exact_match_first(wd):
    hits = wd.search("Arnold Schwarzenegger", kind="entity", mode="label")
    assert [h.id for h in hits] == ["Q2685", "Q901541"]
    assert hits[0].matched == "exact" and hits[0].score == 1.0
    assert hits[1].matched == "api" and hits[1].record.kind == "entity"


def test_wikidata_search_alias_and_kind_property(wd):
    assert [(h.id, h.matched) for h in wd.search("Arnie", kind="entity")] == [("Q2685", "alias")]
    hits = wd.search("member of political party", kind="property")
    assert hits[0].id == "P102" and hits[0].record.kind == "property" and hits[0].record.datatype == "wikibase-item"


def test_wikidata_search_description_mode_uses_fulltext_and_fetches_records(wd, server):
    hits = wd.search("the party a politician belongs to", kind="property", mode="description")
    assert [h.id for h in hits] == ["P102", "P463"]
    assert hits[0].label == "member of political party"
    fulltext = [p for _, p in server.requests if p.get("list") == "search"]
    assert fulltext and fulltext[0]["srnamespace"] == "120"


def test_wikidata_search_rejects_unknown_mode_and_kind(wd):
    with pytest.raises(UserError, match="unknown search mode"):
        wd.search("x", mode="semantic")
    with pytest.raises(UserError, match="unknown kind"):
        wd.search("x", kind="class")
    assert wd.search("x", kind="entity", mode="example") == []


def test_wikidata_get_parses_record_and_renders_p1855_examples_with_values(wd):
    rec = wd.get("http://www.wikidata.org/prop/direct/P102")
    assert rec.id == "P102" and rec.kind == "property" and rec.aliases == ["party"]
    assert rec.super_properties == ["P463"]
    assert rec.examples == ["Eleanor Roosevelt member of political party Democratic Party"]
    # live type constraints: P2302 statements with their P2308 classes; other constraint kinds ignored
    assert rec.subject_types == ["Q5"] and rec.value_types == ["Q7278"]
    arnold = wd.get("wd:Q2685")
    assert arnold.types == ["Q5"] and arnold.description == "Austrian-American actor"
    assert wd.label("Q2685") == "Arnold Schwarzenegger"
    assert wd.contains("Q2685") and not wd.contains("Q123456789")
    assert wd.get("not an id") is None


def test_wikidata_hierarchy_via_sparql(wd):
    assert [r.id for r in wd.super_properties("P102")] == ["P463"]
    assert [r.label for r in wd.super_properties("P102")] == ["member of"]
    assert [r.id for r in wd.sub_properties("P102")] == ["P4100"]
    assert wd.types("Q2685") == ["Q5"]
    assert wd.superclasses("Q5") == ["Q215627"]
    assert wd.superclasses("Q5", depth=2) == ["Q215627", "Q795052"]


def test_wikidata_find_label_escapes_quotes_and_braces(wd, server):
    hits = wd.find_label(TRICKY_LABEL)
    assert [r.id for r in hits] == ["Q999"]
    assert hits[0].label == TRICKY_LABEL
    assert server.sparql_errors == []
    sent = [p["query"] for path, p in server.requests if path == "/sparql"][-1]
    assert 'Foo \\"bar\\" } UNION' in sent  # the brace stays inside the escaped string literal


def test_wikidata_invalid_ids_never_reach_the_endpoint(wd, server):
    for bad in ("P102 } ; DROP ALL", "wd:Q5> ?p ?o", "q5", ""):
        assert wd.super_properties(bad) == []
        assert wd.types(bad) == []
        assert wd.superclasses(bad) == []
    assert [p for p, _ in server.requests if p == "/sparql"] == []


def test_wikidata_responses_are_cached_on_disk(server, tmp_path):
    cache = tmp_path / "http.sqlite"
    with WikidataKB(api_url=server.api_url, sparql_url=server.sparql_url, cache_path=cache) as kb:
        kb.types("Q2685")
        kb.get("Q2685")
    n = len(server.requests)
    with WikidataKB(api_url=server.api_url, sparql_url=server.sparql_url, cache_path=cache) as kb:
        assert kb.types("Q2685") == ["Q5"]
        assert kb.get("Q2685").label == "Arnold Schwarzenegger"
        assert kb.stats()["cached_responses"] == 2
    assert len(server.requests) == n


def test_wikidata_retries_a_busy_server(tmp_path):
    with FakeWikidata(fail_first=1) as srv:
        with WikidataKB(api_url=srv.api_url, sparql_url=srv.sparql_url, cache_path=tmp_path / "c.sqlite") as kb:
            assert kb.types("Q2685") == ["Q5"]
        assert len(srv.requests) == 2


def test_wikidata_unreachable_raises_clear_error(tmp_path):
    with FakeWikidata() as srv:
        url = srv.sparql_url
    with WikidataKB(api_url=url, sparql_url=url, cache_path=tmp_path / "c.sqlite", retries=1, timeout=2) as kb:
        with pytest.raises(KBUnavailableError, match="unreachable"):
            kb.types("Q2685")


def test_wikidata_raw_sparql_rows_and_ask(wd):
    rows = wd.sparql("SELECT ?t WHERE { wd:Q2685 wdt:P31 ?t }")
    assert rows == [{"t": "http://www.wikidata.org/entity/Q5"}]
    assert wd.sparql("ASK { wd:P102 wdt:P1647 wd:P463 }") is True


def test_open_kb_wikidata_needs_no_network_to_construct(tmp_path, monkeypatch):
    from graphwright.kb import open_kb

    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))
    kb = open_kb("wikidata")
    try:
        assert isinstance(kb, WikidataKB) and kb.stats()["cached_responses"] == 0
        assert kb.stats()["cache"].startswith(str(tmp_path))
    finally:
        kb.close()
