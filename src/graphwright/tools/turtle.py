"""Parse an agent's Turtle into (subject, predicate, object) terms."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyoxigraph as ox

from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import TURTLE_PREFIXES

_FENCE = re.compile(r"^```[a-zA-Z]*\s*|```\s*$", re.MULTILINE)
_PREFIX = re.compile(r"\s*(@prefix|PREFIX)\s", re.IGNORECASE)


@dataclass(frozen=True)
class RdfTerm:
    value: str
    is_iri: bool
    datatype: str | None = None


@dataclass(frozen=True)
class ParsedTriple:
    subject: RdfTerm
    predicate: RdfTerm
    object: RdfTerm


def _term(node: object) -> RdfTerm:
    if isinstance(node, ox.NamedNode):
        return RdfTerm(node.value, True)
    if isinstance(node, ox.Literal):
        datatype = node.datatype.value if node.datatype else None
        return RdfTerm(node.value, False, datatype)
    return RdfTerm(str(node), False)  # blank node: kept, and flagged as unknown later


def parse_turtle(text: str) -> list[ParsedTriple]:
    """Parse Turtle; the standard wd:/wdt:/rdfs:/xsd: prefixes are predeclared.

    Raises ModelOutputError with the parser's message, for the model to fix.
    """
    body = _FENCE.sub("", text).strip()
    if not body:
        raise ModelOutputError("The Turtle is empty: write at least one triple such as `wd:Q1 wdt:P31 wd:Q2 .`")
    try:
        quads = ox.parse(TURTLE_PREFIXES + body, format=ox.RdfFormat.TURTLE)
        return [ParsedTriple(_term(q.subject), _term(q.predicate), _term(q.object)) for q in quads]
    except SyntaxError as exc:
        raise ModelOutputError(f"Invalid Turtle: {exc}. Fix the syntax and send the whole Turtle again.") from exc


def _statements(body: str) -> list[str]:
    """The body cut into statements: lines gathered until one ends with '.' (an agent writes one triple
    per line; a literal spanning lines stays whole because its statement ends later). Prefix lines are
    repeated before each statement."""
    prefixes: list[str] = []
    statements: list[str] = []
    current: list[str] = []
    for line in body.split("\n"):  # not splitlines(): U+2028 and the like may sit inside a literal
        if not line.strip():
            continue
        if not current and _PREFIX.match(line):  # declared prefixes stay in force for every statement
            prefixes.append(line)
            continue
        current.append(line)
        if line.rstrip().endswith("."):
            statements.append("\n".join(prefixes + current))
            current = []
    if current:
        statements.append("\n".join(prefixes + current))
    return statements


def salvage_turtle(text: str) -> tuple[list[ParsedTriple], list[str]]:
    """The triples of every statement that parses on its own, and one error per statement that does not.

    For a Turtle the parser rejects as a whole: one bad line (a missing dot, an unquoted name) would
    otherwise cost the run every good triple it found. Raises the parser's ModelOutputError for the
    whole text when no statement yields a triple.
    """
    try:
        return parse_turtle(text), []
    except ModelOutputError as exc:
        whole_error = exc
    triples: list[ParsedTriple] = []
    errors: list[str] = []
    for statement in _statements(_FENCE.sub("", text).strip()):
        try:
            triples.extend(parse_turtle(statement))
        except ModelOutputError:
            errors.append(f"Invalid Turtle, left out: {statement.strip()[:200]}")
    if not triples:
        raise whole_error
    return triples, errors


def _node(term: RdfTerm) -> ox.NamedNode | ox.Literal:
    if term.is_iri:
        return ox.NamedNode(term.value)
    return ox.Literal(term.value, datatype=ox.NamedNode(term.datatype)) if term.datatype else ox.Literal(term.value)


def _iri(term: RdfTerm) -> ox.NamedNode:
    """A subject or predicate, which RDF allows only as an IRI here (pyoxigraph refuses a literal with the
    same TypeError)."""
    node = _node(term)
    if not isinstance(node, ox.NamedNode):
        raise TypeError(f"a triple's subject and predicate must be IRIs, not the literal {term.value!r}")
    return node


def serialize_turtle(triples: list[ParsedTriple]) -> str:
    """Turtle with the wd:/wdt:/xsd: prefixes; values are escaped by the serializer."""
    from graphwright.kb.namespaces import WD, WDT

    quads = [ox.Triple(_iri(t.subject), _iri(t.predicate), _node(t.object)) for t in triples]
    prefixes = {"wd": WD, "wdt": WDT, "xsd": "http://www.w3.org/2001/XMLSchema#"}
    data = ox.serialize(quads, format=ox.RdfFormat.TURTLE, prefixes=prefixes)
    return data.decode("utf-8") if data else ""
