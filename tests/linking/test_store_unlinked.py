"""Unlinked entities and typed literals survive the store, its SPARQL and its exports."""

from __future__ import annotations

import pyoxigraph as ox

from graphwright.kb.namespaces import WD, WDT
from graphwright.linking.literals import XSD
from graphwright.model import Document, Entity, ExtractionResult, Mention, Provenance, Term, Triple
from graphwright.store import GraphStore
from graphwright.store.export import export_graph

VOGEL = "https://graphwright.dev/entity/Katrin%20Vogel"


def _result(doc: Document) -> ExtractionResult:
    prov = Provenance(system="test", evidence=doc.sentence_around(doc.find("Katrin Vogel")))
    vogel = Term.iri(VOGEL, surface="Katrin Vogel", label="Katrin Vogel")
    return ExtractionResult(
        document_id=doc.id,
        system="test",
        triples=[
            Triple(
                subject=vogel,
                predicate=Term.iri(WDT + "P19"),
                object=Term.iri(WD + "Q1055", label="Hamburg"),
                provenance=prov,
            ),
            Triple(
                subject=vogel,
                predicate=Term.iri(WDT + "P569"),
                object=Term.literal("1971", datatype=XSD + "gYear"),
                provenance=prov,
            ),
            Triple(
                subject=vogel,
                predicate=Term.iri(WDT + "P1448"),
                object=Term.literal("Frau Vogel", lang="en"),
                provenance=prov,
            ),
        ],
        entities=[
            Entity(iri=VOGEL, label="Katrin Vogel", types=[WD + "Q5"], mentions=[Mention(surface="Katrin Vogel")])
        ],
    )


def test_unlinked_entities_and_literals_round_trip(tmp_path):
    doc = Document(text="Katrin Vogel was born in Hamburg in 1971.")
    store = GraphStore.in_memory()
    store.add_result(doc, _result(doc))
    triples = store.triples()
    assert triples == _result(doc).triples
    (entity,) = store.entities()
    assert entity.iri == VOGEL and not entity.linked
    rows = store.query("SELECT ?e WHERE { ?e a gw:UnlinkedEntity }")
    assert [str(r["e"]).strip("<>") for r in rows] == [VOGEL]
    export_graph(store, tmp_path / "g.ttl")
    ttl = (tmp_path / "g.ttl").read_text(encoding="utf-8")
    parsed = {
        (str(t.predicate), str(t.object))
        for t in ox.parse(ttl.encode(), format=ox.RdfFormat.TURTLE)
        if t.subject == ox.NamedNode(VOGEL)
    }
    assert {
        (f"<{WDT}P569>", f'"1971"^^<{XSD}gYear>'),
        (f"<{WDT}P1448>", '"Frau Vogel"@en'),
        ("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://graphwright.dev/ns#UnlinkedEntity>"),
    } <= parsed
