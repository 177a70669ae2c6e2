"""Gold data for closed IE, and the generic JSONL format users evaluate their own data with.

One document per line::

    {"id": "merkel-1",
     "text": "Angela Merkel is a politician of the CDU.",
     "triples": [
       {"subject":   {"iri": "Q567", "surface": "Angela Merkel", "start": 0, "end": 13},
        "predicate": {"iri": "P102", "surface": "politician of"},
        "object":    {"iri": "Q49762", "surface": "CDU"}}]}

A term is one of: ``iri`` (a Wikidata id in any usual spelling, or any other IRI for a user's
ontology), ``literal`` (a date, number or string value), or only ``surface``/``names`` when the data
has no KB ids (Re-DocRED): such entities are matched by name. ``start``/``end`` are optional
character offsets. The predicate needs an ``iri``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import unquote

from pydantic import BaseModel, Field, ValidationError, model_validator

from graphwright.errors import DataNotFoundError, UserError
from graphwright.kb.namespaces import parse_wikidata_id
from graphwright.linking.names import fold as normalize_name
from graphwright.model.schema import SCHEMA_NS


class GoldTerm(BaseModel):
    iri: str | None = None
    literal: str | None = None
    surface: str | None = None
    names: list[str] = Field(default_factory=list, description="Other names of the entity (name matching).")
    start: int | None = None
    end: int | None = None

    @model_validator(mode="after")
    def _has_identity(self) -> GoldTerm:
        if not (self.iri or self.literal is not None or self.surface or self.names):
            raise ValueError("a term needs an iri, a literal, or a surface form/names")
        return self

    @property
    def key(self) -> str:
        """What two terms must share to be the same entity or value."""
        if self.iri:
            return iri_key(self.iri)
        if self.literal is not None:
            return literal_key(self.literal)
        return "name:" + normalize_name(self.surface or self.names[0])

    @property
    def by_name(self) -> bool:
        """True when the gold data has no id for this term, so predictions are matched by name."""
        return not self.iri and self.literal is None

    def all_names(self) -> set[str]:
        return {normalize_name(n) for n in [self.surface, *self.names] if n}


class GoldTriple(BaseModel):
    subject: GoldTerm
    predicate: GoldTerm
    object: GoldTerm

    @model_validator(mode="after")
    def _predicate_iri(self) -> GoldTriple:
        if not self.predicate.iri:
            raise ValueError("the predicate needs an iri")
        return self


class GoldEntity(BaseModel):
    """A typed entity mention, for NER data: character offsets into the document text."""

    start: int
    end: int
    type: str
    surface: str | None = None


class GoldArgument(BaseModel):
    """One argument of a gold event: its role and the words that fill it (offsets where the data has them)."""

    role: str
    surface: str
    start: int | None = None
    end: int | None = None


class GoldEvent(BaseModel):
    """An event mention, for event-extraction data: its type, trigger words and arguments."""

    type: str
    trigger: str
    start: int | None = None
    end: int | None = None
    arguments: list[GoldArgument] = Field(default_factory=list)


class GoldDocument(BaseModel):
    id: str
    text: str
    triples: list[GoldTriple] = Field(default_factory=list)
    entities: list[GoldEntity] = Field(default_factory=list)
    events: list[GoldEvent] = Field(default_factory=list)
    title: str | None = None
    # NER data: (start, end) of each token; predictions are scored on these tokens, as seqeval does
    tokens: list[tuple[int, int]] | None = None


def iri_key(iri: str) -> str:
    """Wikidata ids in any spelling become ``Q42``/``P31``; a relation of a user's schema becomes its name,
    as gold files write it (``Work_For``); other IRIs stay as they are."""
    iri = iri.strip().strip("<>")
    if iri.startswith(SCHEMA_NS):
        return unquote(iri.rsplit("/", 1)[1])
    return parse_wikidata_id(iri) or iri


_DATE = re.compile(r"^[+]?(-?\d{4,})-(\d\d)-(\d\d)(?:T[0-9:.]+Z?)?$")


def literal_key(value: str) -> str:
    """Literals compare by lexical value: datatype and time of day dropped, and a date at
    January 1st read as a year, because Wikidata (and REBEL) stores year-precision dates that way."""
    text = value.strip().strip('"')
    text = re.sub(r'"?\^\^.*$', "", text)
    match = _DATE.match(text)
    if match:
        year, month, day = match.groups()
        text = year if (month, day) in {("01", "01"), ("00", "00")} else f"{year}-{month}-{day}"
    elif re.fullmatch(r"[+]?\d+(\.\d+)?", text):
        text = text.lstrip("+")
    return "literal:" + text.casefold()


def read_gold_jsonl(path: Path | str) -> list[GoldDocument]:
    """Documents of a generic-format file; a bad line is an error naming the line and the problem."""
    path = Path(path)
    if not path.is_file():
        raise DataNotFoundError(f"gold file {path} not found")
    docs, seen = [], set()
    for number, line in _lines(path):
        try:
            doc = GoldDocument.model_validate(json.loads(line))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise UserError(
                f"{path}:{number}: not a gold document ({_first_error(exc)}); "
                "see graphwright.bench.data.gold for the format"
            ) from exc
        if doc.id in seen:
            raise UserError(f"{path}:{number}: document id {doc.id!r} appears twice")
        seen.add(doc.id)
        docs.append(doc)
    return docs


def write_gold_jsonl(docs: Iterable[GoldDocument], path: Path | str) -> None:
    with Path(path).open("w", encoding="utf-8") as fh:
        for doc in docs:
            fh.write(doc.model_dump_json(exclude_none=True, exclude_defaults=True) + "\n")


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                yield number, line


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        return f"{where}: {err['msg']}" if where else err["msg"]
    return str(exc)
