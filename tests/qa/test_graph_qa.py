"""Question answering over a small hand-built graph: seeds, the k-hop walk, ranking, citations, the
passage and closed-book baselines, and the global mode's communities (scripted model)."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple
from graphwright.model.schema import minted_relation_iri, name_entity_iri
from graphwright.qa import ClosedBookQA, GraphQA, PassageQA
from graphwright.qa.communities import detect, summarise
from graphwright.qa.engine import fact_sources
from graphwright.qa.facts import Fact, GraphFacts
from graphwright.qa.seeds import QuestionLinker, names
from graphwright.qa.subgraph import RankedFact
from graphwright.store import GraphStore

TEXTS = {
    "ferries": "Kestrel Ferries was founded by Idris Penhallow. Its flagship is the MV Corra Lynn.",
    "ship": "The MV Corra Lynn was built by Arnvik Verft.",
    "yard": "Arnvik Verft is a shipyard in Bergen. Its director is Solveig Hammerstad.",
    "other": "Brunvik Sjokolade is a confectioner in Bergen.",
}
FACTS = {
    "ferries": [("Kestrel Ferries", "founded by", "Idris Penhallow"), ("Kestrel Ferries", "flagship", "MV Corra Lynn")],
    "ship": [("The MV Corra Lynn", "built by", "Arnvik Verft")],  # "The ...": another node of the same name
    "yard": [("Arnvik Verft", "located in", "Bergen"), ("Arnvik Verft", "director", "Solveig Hammerstad")],
    "other": [("Brunvik Sjokolade", "located in", "Bergen")],
}


def node(name: str) -> Term:
    return Term.iri(name_entity_iri(name), surface=name, label=name)


def fill(store: GraphStore) -> GraphStore:
    for doc_id, text in TEXTS.items():
        document = Document(id=doc_id, text=text)
        triples = [
            Triple(
                subject=node(s),
                predicate=Term.iri(minted_relation_iri("openie", p), label=p),
                object=node(o),
                provenance=Provenance(system="openie", evidence=document.sentence_around(document.find(o))),
            )
            for s, p, o in FACTS[doc_id]
        ]
        store.add_result(document, ExtractionResult(document_id=doc_id, system="openie", triples=triples))
    return store


@pytest.fixture(scope="module")
def store():
    with fill(GraphStore.in_memory()) as s:
        yield s


def test_facts_carry_labels_evidence_and_document(store):
    facts = GraphFacts(store).around([name_entity_iri("Arnvik Verft")])
    director = next(f for f in facts if f.predicate_label == "director")
    assert director.text == "Arnvik Verft director Solveig Hammerstad"
    assert director.evidence == {"yard": "Its director is Solveig Hammerstad."}
    assert len(facts) == 3  # built by (object), located in, director
    assert (
        GraphFacts(store, documents={"ship"}).around([name_entity_iri("Arnvik Verft")])[0].predicate_label == "built by"
    )


def test_question_names_and_seeds():
    assert names("Who directs the shipyard that built the MV Corra Lynn?") == ["MV Corra Lynn"]
    assert names('Which band released "Counterparts" and had Neil Peart?') == ["Counterparts", "Neil Peart"]
    assert names("What prize did the manager of Brightwater's Sligo workshop win?") == ["Brightwater", "Sligo"]
    assert names("Who built the MV Corra Lynn's engines?") == ["MV Corra Lynn"]
    linker = QuestionLinker({"n:a": {"MV Corra Lynn"}, "n:b": {"The MV Corra Lynn"}, "n:c": {"Corra"}}, embedder=None)
    seeds = linker.link("Who built the MV Corra Lynn's engines?")
    assert {s.node for s in seeds} == {"n:a", "n:b"}  # "the" aside, one name; "Corra" inside it is no seed
    assert all(s.how == "label" for s in seeds)
    assert linker.namesakes("n:a") == {"n:b"}


def test_the_walk_reaches_the_answer_three_hops_away_and_cites_it(store):
    llm = ScriptedLLM([json.dumps({"answer": "Solveig Hammerstad", "citations": ["F1", "F9"]})])
    qa = GraphQA(store, llm, embedder="minilm")
    question = "Who is the director of the shipyard that built the flagship of Kestrel Ferries?"
    seeds, sources = qa.subgraph(question)
    assert [s.label for s in seeds] == ["Kestrel Ferries"]
    by_text = {s.text.split(" - ")[0].split(" (as")[0]: s for s in sources}
    director = by_text["Arnvik Verft | director | Solveig Hammerstad"]
    assert director.detail["hop"] == 3 and director.documents == ["yard"]
    # Kestrel Ferries -> MV Corra Lynn = The MV Corra Lynn (namesakes) -> Arnvik Verft -> its director
    assert "Its director is Solveig Hammerstad." in director.text
    assert "Brunvik Sjokolade | located in | Bergen" not in by_text  # four hops away
    result = asyncio.run(qa.ask(question))
    assert result.answer == "Solveig Hammerstad"
    assert [c.id for c in result.citations] == ["F1"]  # F9 was not retrieved: not a citation
    assert result.supported and result.usage.llm_calls == 1
    request = llm.calls[0]
    assert f"[{director.id}] Arnvik Verft | director | Solveig Hammerstad" in request["messages"][1]["content"]
    assert request["json_schema"]["properties"]["citations"]["items"]["enum"] == [s.id for s in sources]


def test_an_evidence_sentence_is_shown_once():
    sentence = "Kestrel Ferries was founded by Idris Penhallow in 1988."
    facts = [
        Fact(f"n:{i}", "p", f"o:{i}", "Kestrel Ferries", p, o, True, {"ferries": sentence})
        for i, (p, o) in enumerate([("founded by", "Idris Penhallow"), ("founded in", "1988")])
    ]
    first, second = fact_sources([RankedFact(f, 1.0 - i / 10, 1) for i, f in enumerate(facts)])
    assert first.text == f'Kestrel Ferries | founded by | Idris Penhallow - "{sentence}"'
    assert second.text == "Kestrel Ferries | founded in | 1988 (as F1)"
    assert second.documents == ["ferries"]


def test_a_question_the_graph_does_not_touch_gets_no_sources_and_an_unsupported_answer(store):
    qa = GraphQA(store, ScriptedLLM([json.dumps({"answer": "Oslo", "citations": []})]))
    result = asyncio.run(qa.ask("What is the capital of Norway?"))
    assert result.sources == [] and not result.supported and result.answer == "Oslo"
    assert "(none found)" in qa.llm.calls[0]["messages"][1]["content"]


def test_an_answer_that_does_not_parse_is_fed_back_then_given_up(store):
    qa = GraphQA(store, ScriptedLLM(["not json", "still not", "nope"]))
    result = asyncio.run(qa.ask("Who founded Kestrel Ferries?"))
    assert result.answer == "" and result.error and len(qa.llm.calls) == 3
    assert qa.llm.calls[1]["messages"][-2] == {"role": "assistant", "content": "not json"}  # fed back with its error


def test_passage_baseline_ranks_passages_and_keeps_to_a_pool():
    passages = [(k, k.title(), v) for k, v in TEXTS.items()]
    llm = ScriptedLLM(lambda messages, schema: json.dumps({"answer": "Bergen", "citations": ["P1"]}))
    qa = PassageQA(llm, passages, "bm25", k=2)
    assert [s.documents for s in qa.retrieve("Where is the shipyard Arnvik Verft?")][0] == ["yard"]
    assert [s.documents[0] for s in qa.retrieve("Where is Arnvik Verft?", pool=["ferries", "other"])] == [
        "other",
        "ferries",
    ]
    result = asyncio.run(qa.ask("Where is Arnvik Verft?"))
    assert result.answer == "Bergen" and result.citations[0].documents == ["yard"]
    closed = asyncio.run(ClosedBookQA(ScriptedLLM([json.dumps({"answer": "Bergen", "citations": []})])).ask("Where?"))
    assert closed.sources == [] and closed.answer == "Bergen"


def test_communities_are_detected_and_their_summaries_cached(store, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))
    facts = GraphFacts(store).all()
    found = detect(facts)
    assert sorted(n for c in found for n in c) == sorted({e for f in facts for e in f.ends()})
    llm = ScriptedLLM(lambda messages, schema: json.dumps({"title": "Ferries and yards", "summary": "Who built what."}))
    first = asyncio.run(summarise(llm, facts))
    assert first and all(c.summary == "Who built what." for c in first)
    calls = len(llm.calls)
    again = asyncio.run(summarise(llm, facts))
    assert len(llm.calls) == calls and [c.id for c in again] == [c.id for c in first]
    assert all(c.documents for c in first)  # each summary knows the documents behind it


def test_the_grown_graph_walks_one_node_per_entity(tmp_path):
    from graphwright.growth import GrowthPolicy, grow

    with fill(GraphStore.open(tmp_path / "store")) as grown_store:
        grow(grown_store, GrowthPolicy())
        qa = GraphQA(grown_store, ScriptedLLM([]), grown=True)
        seeds, sources = qa.subgraph("Who is the director of the shipyard that built the flagship of Kestrel Ferries?")
        texts = [s.text for s in sources]
        # "The MV Corra Lynn" was merged into "MV Corra Lynn": one node, no namesake walk needed
        assert any(t.startswith("MV Corra Lynn | built by | Arnvik Verft") for t in texts)
        assert any(t.startswith("Arnvik Verft | director | Solveig Hammerstad") for t in texts)
        assert not any(t.startswith("The MV Corra Lynn") for t in texts)
        director = next(s for s in sources if s.text.startswith("Arnvik Verft | director"))
        assert director.documents == ["yard"]


def test_the_first_global_question_pays_for_the_summaries(store, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))

    def reply(messages, schema):
        if "summarise" in messages[0]["content"]:
            return json.dumps({"title": "Ships", "summary": "Who built what."})
        return json.dumps({"answer": "ships", "citations": ["C1"]})

    told = []
    qa = GraphQA(store, ScriptedLLM(reply), on_summary=told.append)
    first = asyncio.run(qa.ask("What is this about?", mode="global"))
    assert first.usage.llm_calls == len(told) + 1 and told[0].startswith("c0 of ")
    second = asyncio.run(qa.ask("And what else?", mode="global"))
    assert second.usage.llm_calls == 1  # the summaries are kept


def test_global_questions_asked_at_once_summarise_the_communities_once(store, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))
    summaries = []

    def reply(messages, schema):
        if "summarise" in messages[0]["content"]:
            summaries.append(messages[-1]["content"])
            return json.dumps({"title": "Ships", "summary": "Who built what."})
        return json.dumps({"answer": "ships", "citations": ["C1"]})

    qa = GraphQA(store, ScriptedLLM(reply))

    async def both():
        return await asyncio.gather(
            qa.ask("What is this about?", mode="global"), qa.ask("Who built what?", mode="global")
        )

    first, second = asyncio.run(both())
    assert len(summaries) == len(set(summaries)) > 0  # each community summarised by one of the two questions
    assert first.answer == second.answer == "ships"
