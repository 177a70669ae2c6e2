"""The stored graph as question answering reads it, through SPARQL: the named nodes, and the facts
(statements with their labels, evidence sentence and document) around a set of nodes.

Facts come from the provenance graphs' statement records, which keep the evidence the plain KG
cannot; a fact stated by several documents is one fact with each document's evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote

from graphwright.kb.namespaces import local_id
from graphwright.sparql import sparql_iri
from graphwright.store import GraphStore
from graphwright.store import vocab as v


@dataclass
class Fact:
    subject: str  # IRIs; a literal object is its lexical form
    predicate: str
    object: str
    subject_label: str
    predicate_label: str
    object_label: str
    object_is_node: bool
    evidence: dict[str, str] = field(default_factory=dict)  # document id -> the sentence that states it

    @property
    def key(self) -> tuple[str, str, str]:
        return self.subject, self.predicate, self.object

    @property
    def text(self) -> str:
        return f"{self.subject_label} {self.predicate_label} {self.object_label}"

    def ends(self) -> list[str]:
        return [self.subject, self.object] if self.object_is_node else [self.subject]


_STATEMENTS = """
SELECT ?g ?s ?p ?o ?node ?sl ?pl ?ol ?ev ?doc WHERE {
  %(values)s
  GRAPH ?g {
    %(touching)s
    ?st a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
    BIND(isIRI(?o) AS ?node)
    OPTIONAL { ?st gw:subjectLabel ?sl } OPTIONAL { ?st gw:predicateLabel ?pl } OPTIONAL { ?st gw:objectLabel ?ol }
    OPTIONAL { ?st gw:evidenceText ?ev }
    OPTIONAL { ?st gw:run ?run . ?run gw:documentId ?doc }
  }
}"""

_NAMES = """
SELECT DISTINCT ?g ?n ?label WHERE {
  GRAPH ?g {
    ?st a rdf:Statement .
    { ?st rdf:subject ?n ; gw:subjectLabel ?label } UNION { ?st rdf:object ?n ; gw:objectLabel ?label }
    FILTER(isIRI(?n))
  }
}"""


class GraphFacts:
    """Reads one store. ``systems`` and ``documents`` narrow it to those runs (None: all)."""

    def __init__(self, store: GraphStore, systems: set[str] | None = None, documents: set[str] | None = None):
        self.store, self.systems, self.documents = store, systems, documents

    def _wanted(self, graph: str | None) -> bool:
        parsed = v.parse_graph(graph or "")
        if parsed is None or parsed[0] != "prov":
            return False
        _, document, system = parsed
        return (self.systems is None or system in self.systems) and (
            self.documents is None or document in self.documents
        )

    def names(self) -> dict[str, set[str]]:
        """Every node that takes part in a fact, with the labels it carries."""
        out: dict[str, set[str]] = {}
        for row in self.store.query(_NAMES, union=False):
            if self._wanted(row["g"]) and row["label"]:
                out.setdefault(row["n"], set()).add(row["label"])
        return out

    def around(self, nodes: list[str], batch: int = 200) -> list[Fact]:
        """The facts with one of ``nodes`` as subject or object, in a stable order."""
        facts: dict[tuple[str, str, str], Fact] = {}
        for start in range(0, len(nodes), batch):
            values = " ".join(sparql_iri(n) for n in nodes[start : start + batch])
            self._read(
                _STATEMENTS
                % {
                    "values": f"VALUES ?n {{ {values} }}",
                    "touching": "{ ?st rdf:subject ?n } UNION { ?st rdf:object ?n }",
                },
                facts,
            )
        return [facts[k] for k in sorted(facts)]

    def all(self) -> list[Fact]:
        """Every fact (for the communities of the global mode)."""
        facts: dict[tuple[str, str, str], Fact] = {}
        self._read(_STATEMENTS % {"values": "", "touching": ""}, facts)
        return [facts[k] for k in sorted(facts)]

    def _read(self, sparql: str, facts: dict[tuple[str, str, str], Fact]) -> None:
        for row in self.store.query(sparql, union=False):
            if not self._wanted(row["g"]):
                continue
            key = (row["s"], row["p"], row["o"])
            fact = facts.get(key)
            if fact is None:
                object_is_node = row["node"] == "true"
                fact = facts[key] = Fact(
                    *key,
                    subject_label=row["sl"] or _fallback(row["s"]),
                    predicate_label=row["pl"] or _fallback(row["p"]),
                    object_label=row["ol"] or (_fallback(row["o"]) if object_is_node else row["o"]),
                    object_is_node=object_is_node,
                )
            if row["ev"]:
                fact.evidence.setdefault(row["doc"] or "", row["ev"])


def _fallback(iri: str) -> str:
    """A readable name for an IRI without a label: its last segment, decoded."""
    return unquote(local_id(iri) if "wikidata.org" in iri else iri.rstrip("/").rsplit("/", 1)[-1])


class GrownFacts:
    """The graph grown over the documents (`graph merge`): one node per resolved entity, so names merged
    across documents ("Idris Penhallow", "Penhallow") are one node to walk. Staged edges are read too:
    they wait for votes or the schema, and each fact comes with the sentences that state it."""

    def __init__(self, store: GraphStore, documents: set[str] | None = None):
        from graphwright.growth import load

        self.state, self.documents = load(store), documents

    def _edges(self):
        for edge in self.state.edges.values():
            if self.documents is None or edge.sources & self.documents:
                yield edge

    def names(self) -> dict[str, set[str]]:
        ends = {
            e
            for edge in self._edges()
            for e in (edge.subject, edge.object.value if edge.object.kind == "iri" else None)
            if e
        }
        return {iri: {node.label, *node.aliases} for iri, node in self.state.nodes.items() if iri in ends}

    def around(self, nodes: list[str]) -> list[Fact]:
        wanted = set(nodes)
        return self._facts(e for e in self._edges() if e.subject in wanted or e.object.value in wanted)

    def all(self) -> list[Fact]:
        return self._facts(self._edges())

    def _label(self, iri: str) -> str:
        node = self.state.nodes.get(iri)
        return node.label if node else _fallback(iri)

    def _facts(self, edges) -> list[Fact]:
        out = []
        for edge in edges:
            is_node = edge.object.kind == "iri"
            out.append(
                Fact(
                    edge.subject,
                    edge.predicate,
                    edge.object.value,
                    self._label(edge.subject),
                    edge.predicate_label or _fallback(edge.predicate),
                    self._label(edge.object.value) if is_node else edge.object.value,
                    is_node,
                    {ev.document_id: ev.text for ev in edge.evidence},
                )
            )
        return sorted(out, key=lambda f: f.key)
