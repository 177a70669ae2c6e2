"""Read an RDFS ontology (Turtle, N-Triples or RDF/XML) into a KB catalogue.

The ontology's ``rdfs:domain`` and ``rdfs:range`` become the subject and value type
constraints that semantic validation checks; ``rdfs:subPropertyOf`` and ``rdfs:subClassOf``
feed network traversal and the one-level superclass check. The KB keys records by Wikidata-style
ids, so the ontology's terms must be ``wd:`` / ``wdt:`` IRIs (a user who adds constraints or
terms to Wikidata's vocabulary); a term in another namespace is an error that names it.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox

from graphwright.errors import UserError
from graphwright.kb.kgtk import require_file
from graphwright.kb.namespaces import parse_wikidata_id
from graphwright.kb.records import KBRecord
from graphwright.kb.sources import Catalogue, ordered_unique

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SCHEMA_DESC = "http://schema.org/description"

_FORMATS = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML,
}
_PROPERTY_CLASSES = {RDF + "Property", OWL + "ObjectProperty", OWL + "DatatypeProperty"}
#: rdfs:range in XSD -> the Wikibase datatype that semantic validation understands
_XSD_DATATYPES = {
    "date": "time",
    "dateTime": "time",
    "gYear": "time",
    "decimal": "quantity",
    "integer": "quantity",
    "double": "quantity",
    "float": "quantity",
    "string": "string",
}


def read_rdf_ontology(path: Path) -> Catalogue:
    require_file(path, "ontology")
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise UserError(f"{path}: unknown ontology format {path.suffix!r}; use one of {', '.join(sorted(_FORMATS))}")
    try:
        triples = list(ox.parse(path=str(path), format=fmt))
    except SyntaxError as exc:
        raise UserError(f"{path}: invalid RDF: {exc}") from exc
    facts: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for t in triples:
        if isinstance(t.subject, ox.NamedNode):
            facts[t.subject.value][t.predicate.value].append(t.object)
    cat = Catalogue(source={"kind": "rdf-ontology", "path": str(path.resolve())})
    for iri, props in facts.items():
        kinds = {o.value for o in props[RDF + "type"] if isinstance(o, ox.NamedNode)}
        if OWL + "Ontology" in kinds:
            continue  # the ontology's own header
        rid = _id(path, iri)
        is_property = rid.startswith("P") or bool(kinds & _PROPERTY_CLASSES)
        if is_property and not rid.startswith("P"):
            raise UserError(f"{path}: property {iri} needs a wdt:P... IRI")
        label = _text(props[RDFS + "label"])
        record = KBRecord(
            id=rid,
            kind="property" if is_property else "entity",
            label=label,
            description=_text(props[RDFS + "comment"] or props[SCHEMA_DESC]),
            aliases=ordered_unique([o.value for o in props[SKOS_ALT]], exclude=label),
            types=[_id(path, k) for k in sorted(kinds) if not k.startswith((RDF, RDFS, OWL))],
        )
        if is_property:
            _property_facts(path, record, props, kinds)
        else:
            for parent in props[RDFS + "subClassOf"]:
                if isinstance(parent, ox.NamedNode):
                    cat.subclass_of[rid].add(_id(path, parent.value))
        (cat.properties if is_property else cat.entities)[rid] = record
    return cat


def _property_facts(path: Path, record: KBRecord, props: dict[str, list], kinds: set[str]) -> None:
    record.super_properties = [_id(path, o.value) for o in props[RDFS + "subPropertyOf"] if isinstance(o, ox.NamedNode)]
    record.subject_types = [_id(path, o.value) for o in props[RDFS + "domain"] if isinstance(o, ox.NamedNode)]
    for rng in props[RDFS + "range"]:
        if not isinstance(rng, ox.NamedNode):
            continue
        if rng.value.startswith(XSD) or rng.value == RDFS + "Literal":
            record.datatype = _XSD_DATATYPES.get(rng.value[len(XSD) :], "string")
        else:
            record.value_types.append(_id(path, rng.value))
            record.datatype = "wikibase-item"
    if record.datatype is None and OWL + "ObjectProperty" in kinds:
        record.datatype = "wikibase-item"


def _id(path: Path, iri: str) -> str:
    rid = parse_wikidata_id(iri)
    if rid is None:
        raise UserError(
            f"{path}: {iri} is not a Wikidata-style IRI (wd:Q..., wdt:P...); the KB keys every term by such an id"
        )
    return rid


def _text(values: list) -> str:
    """The English (or untagged) literal, else the first one."""
    literals = [v for v in values if isinstance(v, ox.Literal)]
    for lit in literals:
        if lit.language in (None, "en") or (lit.language or "").startswith("en-"):
            return lit.value
    return literals[0].value if literals else ""
