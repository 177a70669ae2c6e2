"""Candidate IRIs for one text, found without an LLM.

Entities: every word n-gram (up to ``max_ngram`` words, longest match first, never across
punctuation) that is exactly a KB label or alias; capitalised spans that no single exact match
covers (misspelt or partial names) are searched with ``kb.search(kind="entity")``.
Properties: each sentence is searched as a property query (the fused search ranks relation
meaning), round-robin by rank so that every sentence contributes; then n-grams that are a
property's label or alias ("spouse", "party"); ``always`` properties (frequent relations the text
rarely words, e.g. "is an actor" states an occupation) come first.

Only item-valued properties are kept, and numbers and month names are not searched: literals
(dates, quantities, names as text) are out of scope for ``cie.single``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel
from rapidfuzz import fuzz, utils

from graphwright.kb.namespaces import WD, WDT, short_iri
from graphwright.kb.protocol import KnowledgeBase
from graphwright.text import name_token_spans, sentences

# Words that are never a mention on their own nor its first or last word ("the Party", "He").
STOPWORDS = frozenset(
    """
a an the and or but nor of in on at to for from by with as into onto over under about after before during
since until than then there here when where while who whom whose which what why how that this these those
is are was were be been being am do does did has have had having not no also its it's he she it they we i you
his her hers him them their theirs our ours us me my mine your yours one ones s
so too very just only yet still even ever more most such some any all each every other same own
can could will would shall should may might must
""".split()
)
# Capitalised words that start dates, not names: fuzzy search maps "July" to "July Monarchy".
DATE_WORDS = frozenset(
    """
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
""".split()
)
# Lower-case words that may sit inside a capitalised name ("University of Texas", "Ludwig van Beethoven").
NAME_JOINERS = frozenset(
    {"of", "the", "de", "del", "der", "den", "van", "von", "da", "di", "du", "la", "le", "and", "y"}
)
# Datatypes whose values are items; None: the KB does not say, so the property stays.
ITEM_VALUED = {"wikibase-item", None}

# Similarity (0-100) a searched word must reach against a word of a hit's label or alias: keeps
# misspellings ("Schwarzeneger") and partial names ("Shriver"), drops hits by meaning ("Born" -> "neonate").
SPELLING_MIN = 80
DESCRIPTION_CHARS = 90  # candidate descriptions are clipped: prompt tokens are the main cost

Via = Literal["label", "search", "sentence", "always"]


class Candidate(BaseModel):
    """One IRI the model may choose, and the words of the text that found it."""

    id: str
    kind: Literal["entity", "property"]
    label: str = ""
    description: str = ""
    surface: str | None = None  # the mention that found it; None for sentence searches and `always`
    via: Via

    @property
    def short(self) -> str:
        """``wd:Q42`` / ``wdt:P31``: the form in the prompt and the schema."""
        return short_iri(self.id)

    @property
    def iri(self) -> str:
        """The full IRI of its position in a triple: ``wd:`` for items, ``wdt:`` for predicates."""
        return (WDT if self.kind == "property" else WD) + self.id

    def line(self) -> str:
        desc = self.description
        if len(desc) > DESCRIPTION_CHARS:
            desc = desc[: DESCRIPTION_CHARS - 1].rstrip() + "…"
        found = f' (text: "{self.surface}")' if self.surface else ""
        return f"{self.short} {self.label or '?'}" + (f" - {desc}" if desc else "") + found


class Candidates(BaseModel):
    entities: list[Candidate]
    properties: list[Candidate]

    def render(self, kind: Literal["entity", "property"]) -> str:
        found = self.entities if kind == "entity" else self.properties
        return "\n".join(c.line() for c in found) or "(none)"


@dataclass
class _Token:
    text: str
    start: int
    end: int


def tokens(text: str) -> list[_Token]:
    return [_Token(text[a:b], a, b) for a, b in name_token_spans(text)]


def _joined(text: str, left: _Token, right: _Token) -> bool:
    """Adjacent tokens form one phrase only across plain spaces (no comma, full stop or line break)."""
    return text[left.end : right.start].strip(" ") == ""


class _Pool:
    """Candidates of one kind. Each has a sort key (tier, rank among a mention's or a sentence's hits,
    position): the cap keeps every mention's best record before any second reading of a name
    ("Paris" the city before Paris, Kentucky), and the better key wins when two finders meet."""

    def __init__(self, kind: str):
        self.kind = kind
        self.items: dict[str, tuple[tuple[float, ...], Candidate]] = {}

    def add(self, record: Any, via: Via, key: tuple[float, ...], surface: str | None = None) -> None:
        if record is None or record.kind != self.kind or not record.id:
            return
        if self.kind == "property" and getattr(record, "datatype", None) not in ITEM_VALUED:
            return  # literal-valued: out of scope here
        old = self.items.get(record.id)
        if old is None:
            cand = Candidate(
                id=record.id,
                kind=record.kind,
                label=record.label or "",
                description=record.description or "",
                surface=surface,
                via=via,
            )
            self.items[record.id] = (key, cand)
        elif key < old[0]:
            self.items[record.id] = (key, old[1])  # keep the words that found it first

    def top(self, n: int, *, text_order: bool = False) -> list[Candidate]:
        chosen = sorted(self.items.values(), key=lambda x: x[0])[:n]
        if text_order:  # easier to read: candidates in the order the text mentions them
            chosen.sort(key=lambda x: x[0][-1])
        return [c for _, c in chosen]


def retrieve_candidates(
    kb: KnowledgeBase,
    text: str,
    *,
    max_entities: int = 50,
    max_properties: int = 30,
    per_mention: int = 3,
    per_sentence: int = 8,
    max_ngram: int = 5,
    always: tuple[str, ...] | list[str] = (),
) -> Candidates:
    """Entity and property candidates for ``text`` from ``kb`` (any KB with ``search``, ideally ``find_label``).

    ``max_ngram=0`` turns exact n-gram look-ups off (one query per n-gram: cheap on a local KB,
    slow on live Wikidata); capitalised spans are then all searched.
    """
    entities, properties = _Pool("entity"), _Pool("property")
    toks = tokens(text)
    covered = _spot_exact(kb, text, toks, entities, properties, per_mention, max_ngram)
    for surface, (start, end) in _capitalised_spans(text, toks):
        if any(s <= start and end <= e for s, e in covered):
            continue  # one exact match already names the whole span
        for rank, hit in enumerate(kb.search(surface, kind="entity", k=per_mention)):
            exact = getattr(hit, "matched", None) in ("exact", "alias")
            if not exact and not _spelt_alike(surface, hit.record):
                continue  # fused search also ranks by meaning: "Born" finds "neonate"
            # the best fuzzy hit ranks with common nouns: a sentence's first word is capitalised too
            entities.add(hit.record, "search", (0 if exact else 1 if rank == 0 else 2, rank, start), surface)
    for n, pid in enumerate(always):
        properties.add(kb.get(pid), "always", (-1, n, 0))
    parts = sentences(text)
    ranked = [kb.search(s, kind="property", k=per_sentence) for s in parts]
    for i, hits in enumerate(ranked):  # keyed (rank, sentence): every sentence gets its best hits in
        for rank, hit in enumerate(hits):
            properties.add(hit.record, "sentence", (0, rank, i))
    return Candidates(entities=entities.top(max_entities, text_order=True), properties=properties.top(max_properties))


def _spelt_alike(surface: str, record: Any) -> bool:
    """Some word of the surface is spelt like some word of the hit's label or an alias. Word by
    word, because partial matching of whole strings lets "Born" match "newborn" and "bo"."""
    words = utils.default_process(surface).split()
    names = [record.label, *getattr(record, "aliases", [])]
    return any(
        fuzz.ratio(w, v) >= SPELLING_MIN for n in names if n for v in utils.default_process(n).split() for w in words
    )


def _lower_case_name(record: Any, surface: str) -> bool:
    """A lower-case phrase links only to records that have it as a lower-case name: "actor" is
    the occupation, but "met" is not the Met (a museum's alias)."""
    key = surface.casefold()
    names = [record.label, *getattr(record, "aliases", [])]
    return any(n.casefold() == key and not n[:1].isupper() for n in names if n)


def _spot_exact(
    kb: KnowledgeBase,
    text: str,
    toks: list[_Token],
    entities: _Pool,
    properties: _Pool,
    per_mention: int,
    max_ngram: int,
) -> list[tuple[int, int]]:
    """Longest-first exact label/alias matches; returns the character ranges they cover."""
    find = getattr(kb, "find_label", None)
    if find is None or max_ngram <= 0:
        return []
    covered: list[tuple[int, int]] = []
    taken = [False] * len(toks)
    for n in range(min(max_ngram, len(toks)), 0, -1):
        for i in range(len(toks) - n + 1):
            span = toks[i : i + n]
            if any(taken[i : i + n]) or not all(_joined(text, a, b) for a, b in zip(span, span[1:])):
                continue
            if _stopword(span[0], n == 1) or _stopword(span[-1], n == 1):
                continue
            if n == 1 and len(span[0].text) <= 2 and not span[0].text[:1].isupper():
                continue  # "go", "tv": lower-case words this short match codes ("GO", "TV") as aliases
            surface = text[span[0].start : span[-1].end]
            records = find(surface)
            if surface.islower():
                records = [r for r in records if _lower_case_name(r, surface)]
            if not records:
                continue
            # a name or a phrase is a likelier mention than a single common noun ("film", "member")
            named = n > 1 or span[0].text[:1].isupper()
            for rank, rec in enumerate([r for r in records if r.kind == "entity"][:per_mention]):
                entities.add(rec, "label", (0 if named else 1, rank, span[0].start), surface)
            for rank, rec in enumerate([r for r in records if r.kind == "property"][:per_mention]):
                properties.add(rec, "label", (1, rank, span[0].start), surface)
            taken[i : i + n] = [True] * n
            covered.append((span[0].start, span[-1].end))
    return covered


def _capitalised_spans(text: str, toks: list[_Token]) -> list[tuple[str, tuple[int, int]]]:
    """Maximal runs of capitalised words (joined by spaces and name joiners), minus stopwords,
    name joiners and date words at their ends."""
    runs: list[list[_Token]] = []
    run: list[_Token] = []
    for tok in toks:
        if run and not _joined(text, run[-1], tok):
            runs.append(run)
            run = []
        if tok.text[:1].isupper() or (run and tok.text in NAME_JOINERS):
            run.append(tok)
        elif run:
            runs.append(run)
            run = []
    runs.append(run)
    out = []
    for run in runs:
        while run and (_stopword(run[0], True) or run[0].text.casefold() in DATE_WORDS):
            run = run[1:]  # "The", "In", "He", "July" start sentences, not names
        while run and (run[-1].text in NAME_JOINERS or run[-1].text.casefold() in DATE_WORDS):
            run = run[:-1]
        if run:
            start, end = run[0].start, run[-1].end
            out.append((text[start:end], (start, end)))
    return list(dict.fromkeys(out))


def _stopword(tok: _Token, alone: bool) -> bool:
    """A stopword, alone in any case ("He"); inside a phrase only in lower case, since capitalised
    it may be part of a name ("Theresa May", "Will Smith")."""
    return tok.text.casefold() in STOPWORDS and (alone or tok.text.islower())
