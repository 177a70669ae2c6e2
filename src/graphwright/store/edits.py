"""A user's edits of the graph, and how they rewrite a run's quads.

Three kinds, recorded in the store's edits graph (graphwright.curation writes and undoes them):

* merge: entity ``source`` is entity ``target`` (duplicates from two documents, or a name the KB missed);
* rename: entity ``node`` is labelled ``label``;
* remove: the fact (``subject``, ``predicate``, ``object``) is wrong.

Every active edit is applied to each run's quads as the store writes them, so an edit holds when a
document is extracted again: a removed fact stays removed, a merged name stays merged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import pyoxigraph as ox

from graphwright.store import vocab as v
from graphwright.store.codec import term_value

EDITS_GRAPH = "urn:graphwright:edits"
EDIT = v.GW + "Edit"
KIND, SOURCE, TARGET, NODE, NEW_LABEL = (
    v.GW + "editKind",
    v.GW + "editSource",
    v.GW + "editTarget",
    v.GW + "editNode",
    v.GW + "editLabel",
)
FACT_S, FACT_P, FACT_O = v.GW + "editSubject", v.GW + "editPredicate", v.GW + "editObject"
UNDONE, NUMBER = v.GW + "undone", v.GW + "editNumber"
NAMES = v.GW + "editNames"  # the labels its IRIs had when it was made (JSON): a merged or renamed entity's are gone
RAW = v.GW + "unedited"  # on a run's IRI in the edits graph: its quads as the system wrote them (N-Quads)


@dataclass(frozen=True)
class Edit:
    number: int
    kind: str  # merge | rename | remove
    source: str | None = None  # merge: the entity that goes
    target: str | None = None  # merge: the entity it becomes
    node: str | None = None  # rename
    label: str | None = None  # rename
    fact: tuple[str, str, str] | None = None  # remove: subject, predicate, object (IRIs or a literal's value)
    undone: bool = False
    names: str | None = None  # JSON {IRI: label} as they were when the edit was made

    @property
    def iris(self) -> list[str]:
        return [i for i in (self.source, self.target, self.node, *(self.fact or ())) if i]

    def describe(self, labels: Mapping[str, str] | None = None) -> str:
        """What the edit does, naming each IRI by its label when the edit was made, else in ``labels``."""
        were = json.loads(self.names) if self.names else {}

        def name(iri: str | None) -> str:
            return were.get(iri or "") or (labels or {}).get(iri or "", iri or "")

        if self.kind == "merge":
            return f"merge {name(self.source)} into {name(self.target)}"
        if self.kind == "rename":
            return f"rename {name(self.node)} to {self.label!r}"
        return f"remove {' | '.join(name(part) for part in self.fact or ())}"


def edit_iri(number: int) -> str:
    return f"urn:graphwright:edit:{number}"


def read_edits(store: ox.Store) -> list[Edit]:
    """Every recorded edit, in the order it was made."""
    graph = ox.NamedNode(EDITS_GRAPH)
    props: dict[str, dict[str, str]] = {}
    for quad in store.quads_for_pattern(None, None, None, graph):
        props.setdefault(term_value(quad.subject), {})[quad.predicate.value] = term_value(quad.object)
    edits = []
    for p in props.values():
        if p.get(v.RDF_TYPE) != EDIT:
            continue
        fact = (p[FACT_S], p[FACT_P], p[FACT_O]) if FACT_S in p else None
        edits.append(
            Edit(
                int(p[NUMBER]),
                p[KIND],
                p.get(SOURCE),
                p.get(TARGET),
                p.get(NODE),
                p.get(NEW_LABEL),
                fact,
                p.get(UNDONE) == "true",
                p.get(NAMES),
            )
        )
    return sorted(edits, key=lambda e: e.number)


def record_quads(edit: Edit) -> list[ox.Quad]:
    """The edit as quads of the edits graph."""
    node, graph = ox.NamedNode(edit_iri(edit.number)), ox.NamedNode(EDITS_GRAPH)
    fields: dict[str, ox.NamedNode | ox.Literal | str | None] = {
        v.RDF_TYPE: ox.NamedNode(EDIT),
        NUMBER: ox.Literal(str(edit.number)),
        KIND: ox.Literal(edit.kind),
        SOURCE: edit.source,
        TARGET: edit.target,
        NODE: edit.node,
        NEW_LABEL: edit.label,
        UNDONE: "true" if edit.undone else None,
        NAMES: edit.names,
    }
    if edit.fact:
        fields.update({FACT_S: edit.fact[0], FACT_P: edit.fact[1], FACT_O: edit.fact[2]})
    out = []
    for predicate, value in fields.items():
        if value is not None:
            obj = value if isinstance(value, (ox.NamedNode, ox.Literal)) else ox.Literal(value)
            out.append(ox.Quad(node, ox.NamedNode(predicate), obj, graph))
    return out


def apply_edits(quads: list[ox.Quad], edits: list[Edit]) -> list[ox.Quad]:
    """A run's quads (knowledge graph and provenance) with the active ``edits`` applied, in their order."""
    for edit in edits:
        if edit.undone:
            continue
        # curation checks each kind's fields before it records an edit
        if edit.kind == "merge":
            assert edit.source is not None and edit.target is not None, "a merge names both entities"
            quads = _merged(quads, edit.source, edit.target)
        elif edit.kind == "rename":
            assert edit.node is not None and edit.label is not None, "a rename names the entity and its new name"
            quads = _renamed(quads, edit.node, edit.label)
        elif edit.kind == "remove":
            assert edit.fact is not None, "a removal names the fact"
            quads = _removed(quads, edit.fact)
    return _recounted(list(dict.fromkeys(quads)))  # a merge can make two quads one


def _recounted(quads: list[ox.Quad]) -> list[ox.Quad]:
    """The run record's triple count as its statements now stand (a removed fact is one fewer)."""
    statements = sum(1 for q in quads if q.predicate.value == v.RDF_TYPE and term_value(q.object) == v.RDF_STATEMENT)
    count = ox.Literal(str(statements), datatype=ox.NamedNode(v.XSD_INTEGER))
    return [
        ox.Quad(q.subject, q.predicate, count, q.graph_name) if q.predicate.value == v.TRIPLE_COUNT else q
        for q in quads
    ]


def _merged(quads: list[ox.Quad], source: str, target: str) -> list[ox.Quad]:
    old, new = ox.NamedNode(source), ox.NamedNode(target)

    def swap(term):
        return new if term == old else term

    return [ox.Quad(swap(q.subject), q.predicate, swap(q.object), q.graph_name) for q in quads]


def _renamed(quads: list[ox.Quad], node: str, label: str) -> list[ox.Quad]:
    """The node's rdfs:label in the knowledge graph, and the labels statements give it in provenance."""
    target = ox.NamedNode(node)
    roles = {
        (q.subject, v.SUBJECT_LABEL if q.predicate.value == v.RDF_SUBJECT else v.OBJECT_LABEL)
        for q in quads
        if q.object == target and q.predicate.value in (v.RDF_SUBJECT, v.RDF_OBJECT)
    }
    out = []
    for q in quads:
        if (q.subject == target and q.predicate.value == v.LABEL) or (q.subject, q.predicate.value) in roles:
            q = ox.Quad(q.subject, q.predicate, ox.Literal(label), q.graph_name)
        out.append(q)
    return out


def _removed(quads: list[ox.Quad], fact: tuple[str, str, str]) -> list[ox.Quad]:
    """Without the fact's knowledge-graph triple and its statement records."""
    s, p, o = fact

    def matches(subject, predicate, obj) -> bool:
        return subject.value == s and predicate.value == p and obj.value == o

    parts: dict = {}
    for q in quads:
        if q.predicate.value in (v.RDF_SUBJECT, v.RDF_PREDICATE, v.RDF_OBJECT):
            parts.setdefault(q.subject, {})[q.predicate.value] = q.object
    dropped = {
        stmt
        for stmt, spo in parts.items()
        if len(spo) == 3 and matches(spo[v.RDF_SUBJECT], spo[v.RDF_PREDICATE], spo[v.RDF_OBJECT])
    }
    return [q for q in quads if q.subject not in dropped and not matches(q.subject, q.predicate, q.object)]


def unedited_quad(run: str, quads: list[ox.Quad]) -> ox.Quad:
    """A run's quads as the system wrote them, kept beside the edits so an undo can rebuild the run."""
    data = ox.serialize(quads, format=ox.RdfFormat.N_QUADS)
    assert data is not None  # with no output given, serialize returns the bytes
    text = data.decode("utf-8")
    return ox.Quad(ox.NamedNode(run), ox.NamedNode(RAW), ox.Literal(text), ox.NamedNode(EDITS_GRAPH))


def parse_unedited(text: str) -> list[ox.Quad]:
    return list(ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_QUADS))
