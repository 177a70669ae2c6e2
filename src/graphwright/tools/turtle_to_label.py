"""Turtle-to-label: resolve every IRI of a Turtle answer to its KB label
(CIExMAS section 4.2.4), flagging unknown IRIs and wrong namespaces."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from graphwright.kb.namespaces import WD, WDT, local_id
from graphwright.tools.turtle import ParsedTriple, RdfTerm, parse_turtle


class LabelledTerm(BaseModel):
    value: str
    label: str | None = None
    is_iri: bool = True
    datatype: str | None = None


class LabelledTriple(BaseModel):
    subject: LabelledTerm
    predicate: LabelledTerm
    object: LabelledTerm


class LabelReport(BaseModel):
    triples: list[LabelledTriple] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list, description="Unknown IRIs, wrong namespaces, missing labels.")

    @property
    def ok(self) -> bool:
        return not self.problems


def _check(kb, term: RdfTerm, position: str, problems: list[str]) -> LabelledTerm:
    if not term.is_iri:
        if position != "object":
            problems.append(f"the {position} {term.value!r} must be an IRI, not a literal")
        return LabelledTerm(value=term.value, is_iri=False, datatype=term.datatype)
    iri, ident = term.value, local_id(term.value)
    if position == "predicate":
        if iri.startswith(WD) and ident.startswith("P"):
            problems.append(f"wrong namespace for predicate wd:{ident}: use wdt:{ident}")
        elif not (iri.startswith(WDT) and ident.startswith("P")):
            problems.append(f"predicate <{iri}> is not a Wikidata property (expected wdt:P...)")
    elif iri.startswith(WDT):
        problems.append(f"wrong namespace for {position} wdt:{ident}: entities use wd:")
    elif not iri.startswith(WD):
        problems.append(f"{position} <{iri}> is not a Wikidata IRI (expected wd:Q...)")
    record = kb.get(iri)
    if record is None:
        problems.append(f"unknown IRI {ident}: not in the knowledge base (made up or mistyped?)")
        return LabelledTerm(value=iri)
    if not record.label:
        problems.append(f"{ident} exists but has no English label")
    return LabelledTerm(value=iri, label=record.label)


def turtle_to_label(kb, turtle: str) -> LabelReport:
    """Label every IRI in ``turtle``.

    kb: the knowledge base that defines valid IRIs. turtle: the candidate
    output; wd:, wdt:, rdfs: and xsd: prefixes are predeclared. Raises
    ModelOutputError when the Turtle does not parse.
    """
    return label_triples(kb, parse_turtle(turtle))


def label_triples(kb, parsed: list[ParsedTriple]) -> LabelReport:
    report = LabelReport()
    for t in parsed:
        report.triples.append(
            LabelledTriple(
                subject=_check(kb, t.subject, "subject", report.problems),
                predicate=_check(kb, t.predicate, "predicate", report.problems),
                object=_check(kb, t.object, "object", report.problems),
            )
        )
    return report


def render_report(report: LabelReport, free_form: Sequence[tuple[str, str, str]] = ()) -> str:
    """Readable triples; when IRIs are wrong, repeat the free-form triples to fall back on."""
    lines = []
    for t in report.triples:
        parts = [
            x.label or (x.value if not x.is_iri else f"<unknown {local_id(x.value)}>")
            for x in (t.subject, t.predicate, t.object)
        ]
        lines.append(
            f"{local_id(t.subject.value)} {local_id(t.predicate.value)} {local_id(t.object.value) if t.object.is_iri else repr(t.object.value)}"
            f"  =  ({parts[0]}; {parts[1]}; {parts[2]})"
        )
    if report.problems:
        lines.append("Problems:")
        lines += [f"- {p}" for p in report.problems]
        if free_form:
            lines.append("Free-form triples from the text, to map again:")
            lines += [f"- ({s}; {p}; {o})" for s, p, o in free_form]
    else:
        lines.append("All IRIs are known and labelled.")
    return "\n".join(lines)
