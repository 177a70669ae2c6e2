"""Put the facts kept under a text's phrase onto a KB property, by hand: `graphwright graph map-relation`.

A relation no KB property fits is stored under its own IRI (``gwr:<phrase>``, typed
gw:UnlinkedRelation). Once a user decides which property it means, every fact under it moves onto that
property, in each document's graph and in its provenance statement (whose predicate label, and with
``swap`` whose subject and object, follow), as if the extractor had mapped it so. Facts whose object is a
value cannot be read the other way round; a swap leaves them where they are and counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox

from graphwright.errors import UserError
from graphwright.kb.namespaces import is_unlinked_relation
from graphwright.model.schema import phrase_relation_iri
from graphwright.store import vocab as v
from graphwright.store.codec import merged_graph_sync, quad_data, term_value
from graphwright.store.rdf_store import GraphStore, translated_errors

#: statement fields that trade places when subject and object do
_SWAPPED = ((v.RDF_SUBJECT, v.RDF_OBJECT), (v.SUBJECT_SURFACE, v.OBJECT_SURFACE), (v.SUBJECT_LABEL, v.OBJECT_LABEL))


@dataclass(frozen=True)
class RelationMapped:
    facts: int  # facts moved onto the property
    kept: int  # facts left under the phrase: a value cannot be the subject of the swapped fact
    documents: int


def relation_iri(phrase_or_iri: str) -> str:
    """The stored IRI of a phrase the text states ("acquired"), or that IRI itself."""
    iri = phrase_or_iri if phrase_or_iri.startswith("http") else phrase_relation_iri(phrase_or_iri.casefold())
    if not is_unlinked_relation(iri):
        raise UserError(f"{phrase_or_iri!r} is not a relation kept under the text's phrase; only those can be mapped")
    return iri


def map_relation(
    store: GraphStore, phrase_or_iri: str, property_iri: str, *, swap: bool = False, label: str | None = None
) -> RelationMapped:
    """Move every fact under the phrase onto ``property_iri`` (labelled ``label``), in one update: a crash
    leaves the store as it was or mapped, never half of it."""
    old, new = ox.NamedNode(relation_iri(phrase_or_iri)), ox.NamedNode(property_iri)
    changes = _Changes(store)
    moved = kept = 0
    documents = set()
    with translated_errors("cannot map the relation"):
        for graph, document_id, system in store.graphs("doc"):
            facts = list(store.oxigraph.quads_for_pattern(None, old, None, graph))
            prov = ox.NamedNode(v.prov_graph(document_id, system))
            stays = [f for f in facts if swap and not isinstance(f.object, ox.NamedNode)]
            for fact in facts:
                if fact in stays:
                    continue
                subject, obj = (fact.object, fact.subject) if swap else (fact.subject, fact.object)
                assert not isinstance(subject, ox.Literal)  # swapped, a fact whose object is no node stays (above)
                changes.remove(fact)
                changes.add(ox.Quad(subject, new, obj, graph))
                for statement in _statements(store, prov, fact):
                    changes.set(statement, v.RDF_PREDICATE, new, prov)
                    changes.set(statement, v.PREDICATE_LABEL, ox.Literal(label) if label else None, prov)
                    if swap:
                        for first, second in _SWAPPED:
                            a, b = changes.value(statement, first, prov), changes.value(statement, second, prov)
                            changes.set(statement, first, b, prov)
                            changes.set(statement, second, a, prov)
            moved, kept = moved + len(facts) - len(stays), kept + len(stays)
            if len(facts) > len(stays):
                documents.add(document_id)
                if label:
                    changes.set(new, v.LABEL, ox.Literal(label), graph)
            if facts and not stays:  # no fact uses the phrase here any more: its description goes
                for quad in store.oxigraph.quads_for_pattern(old, None, None, graph):
                    changes.remove(quad)
        changes.apply()
    return RelationMapped(moved, kept, len(documents))


class _Changes:
    """Quads to remove and add, applied as one SPARQL update."""

    def __init__(self, store: GraphStore):
        self.store = store
        self.removed: dict[ox.Quad, None] = {}
        self.added: dict[ox.Quad, None] = {}

    def remove(self, quad: ox.Quad) -> None:
        self.added.pop(quad, None)
        self.removed[quad] = None

    def add(self, quad: ox.Quad) -> None:
        self.removed.pop(quad, None)
        self.added[quad] = None

    def value(self, subject, predicate: str, graph: ox.NamedNode):
        """The one value as it stands after the changes so far."""
        p = ox.NamedNode(predicate)
        for quad in self.added:
            if quad.subject == subject and quad.predicate == p and quad.graph_name == graph:
                return quad.object
        for quad in self.store.oxigraph.quads_for_pattern(subject, p, None, graph):
            if quad not in self.removed:
                return quad.object
        return None

    def set(self, subject, predicate: str, value, graph: ox.NamedNode) -> None:
        p = ox.NamedNode(predicate)
        for quad in [
            *self.store.oxigraph.quads_for_pattern(subject, p, None, graph),
            *(q for q in self.added if q.subject == subject and q.predicate == p and q.graph_name == graph),
        ]:
            self.remove(quad)
        if value is not None:
            self.add(ox.Quad(subject, p, value, graph))

    def apply(self) -> None:
        if not self.removed and not self.added:
            return
        kg = [q.triple for q in [*self.removed, *self.added] if term_value(q.graph_name).startswith(v.DOC_GRAPH_PREFIX)]
        self.store.oxigraph.update(
            " ;\n".join(
                [
                    f"DELETE DATA {{ {quad_data(self.removed)} }}",
                    f"INSERT DATA {{ {quad_data(self.added)} }}",
                    *merged_graph_sync(kg),
                ]
            )
        )
        self.store.flush()


def _statements(store: GraphStore, prov: ox.NamedNode, fact: ox.Quad) -> list[ox.NamedNode]:
    """The provenance statements that record this fact."""
    found: list[ox.NamedNode] = []
    for quad in store.oxigraph.quads_for_pattern(None, ox.NamedNode(v.RDF_PREDICATE), fact.predicate, prov):
        statement = quad.subject
        assert isinstance(statement, ox.NamedNode)  # a statement record is named by its IRI (codec.statement_iri)
        if (
            _only(store, statement, v.RDF_SUBJECT, prov) == fact.subject
            and _only(store, statement, v.RDF_OBJECT, prov) == fact.object
        ):
            found.append(statement)
    return found


def _only(store: GraphStore, subject, predicate: str, graph: ox.NamedNode):
    quad = next(store.oxigraph.quads_for_pattern(subject, ox.NamedNode(predicate), None, graph), None)
    return quad.object if quad else None
