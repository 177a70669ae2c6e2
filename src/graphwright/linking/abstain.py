"""Whether to keep a link the rules and the gloss let stand, or mint the name after all (issue 61).

The rules of context.py rule a candidate out only when the text contradicts it. On text written after they
were, about one link in eight was still wrong: a famous entity the KB lacks while it holds a lesser namesake
(made-up stonemasons called David Lee and Jim Taylor linked to a sound engineer and a screenwriter), that
nothing in the text or the gloss contradicts. What does tell them apart is how much speaks *for* a link:
whether the text settles it, how many of the description's words the text writes, whether the KB has other
entities of the name, whether the model's gloss names the same kind of thing, and how prominent the entity
is (a Wikidata item's number grows with its creation: Q5236418 "David Lee, sound engineer" is no Q42).

A logistic model of these turns them into the chance that the link is wrong; above the threshold the name is
minted (a wrong link is worse than a missing one). Weights and threshold are fitted by
``python -m graphwright.bench.fit_link_abstain`` on the linking benchmark's halves that were read before,
and shipped as ``abstain.json``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from graphwright.kb.default import default_kb_dir
from graphwright.kb.records import KBRecord
from graphwright.linking.occupations import HUMAN

FEATURES = (
    "bias",
    "settled",  # the text places, dates or kinds it (context.py's choice)
    "year_agrees",
    "kind_or_place_written",
    "shared_words",  # countries, description words and acronym letters the text shares (context.py), of 3
    "nothing_shared",
    "label_is_name",  # the entity's label is the name as written (not an alias)
    "only_namesake",  # the KB has no other entity of the name
    "others_left",  # candidates the text leaves possible besides it, of 3
    "gloss_same_kind",  # the model's gloss names a person, place, work or organisation as the entity is one
    "gloss_other_kind",
    "gloss_shares_description",  # the gloss writes a word of the description ("an American actor")
    "person_glossed_apart",  # a person whose gloss shares no word with the description ("David Lee, a man")
    "item_number",  # log10 of the Wikidata item number, / 8; neutral for a KB without Q-numbers
    "late_item",  # item number above a million
    "description_in_text",  # words of four letters or more of the description the text writes, of 3
    "confidence",  # the link judge's (judge.py)
    "names_known",  # of the text's other capitalised names, the share the KB has an entity of
    "person_among_unknown_names",  # a person in a text of names the KB lacks (a made-up firm's staff)
)
NEUTRAL_ITEM = 6.0  # log10 of an item number for a KB whose ids are not Wikidata's: a middling one
# a capitalised word (dots only inside it: "U.S"), or an initial ("John F. Kennedy"); a full stop after a
# word ends the name ("Keene. She")
_WORD = r"(?:[A-Z]\.(?=\s+[A-Z])|[A-Z](?:[\w'-]|\.(?=\w))*)"
_NAME = re.compile(rf"{_WORD}(?:\s+(?:of\s+|the\s+|and\s+|&\s+)?{_WORD})*")
_STOP = frozenset("the and for from with was his her its their who which that this into born former known also".split())


@dataclass(frozen=True)
class LinkSupport:
    """What the rules and the gloss found for one link, read at link time."""

    settled: bool
    agreement: tuple[int, bool, int]  # context.Fit.agreement
    namesakes: int  # KB entities of exactly the name
    others_left: int
    gloss: str | None  # what the model wrote the name is; None: not asked
    gloss_kinds: tuple[str | None, str | None] | None  # (the gloss's kind, the entity's); None: not glossed
    confidence: float
    names_known: float = 0.5  # of the text's other names, the share the KB has (other_names); 0.5: no others


def _words(text: str, shortest: int = 4) -> set[str]:
    return {w.casefold() for w in re.findall(rf"[A-Za-z]{{{shortest},}}", text)} - _STOP


@lru_cache(maxsize=64)
def _text_names(text: str) -> frozenset[str]:
    """The text's capitalised names, read once per text (every link of a document asks)."""
    return frozenset(n for n in (m.group(0).rstrip(".") for m in _NAME.finditer(text)) if n)


def other_names(text: str, surface: str) -> list[str]:
    """The text's capitalised names but ``surface`` and those inside it or around it ("Harbour Lane";
    sentence-initial function words such as "She" are left to the caller)."""
    return sorted(n for n in _text_names(text) if n != surface and surface not in n and n not in surface)


def features(surface: str, record: KBRecord, text: str, support: LinkSupport) -> list[float]:
    """The values of FEATURES for linking ``surface`` in ``text`` to ``record``."""
    year, written, shared = support.agreement
    said, is_kind = support.gloss_kinds or (None, None)
    number = re.fullmatch(r"Q([0-9]+)", record.id)
    magnitude = math.log10(int(number.group(1))) if number else NEUTRAL_ITEM
    name = _words(surface)
    described = len((_words(record.description) - name) & (_words(text) - name))
    glossed = support.gloss is not None
    shares = glossed and bool((_words(support.gloss or "", 3) - name) & (_words(record.description, 3) - name))
    return [
        1.0,
        float(support.settled),
        float(year > 0),
        float(bool(written)),
        min(shared, 3) / 3,
        float(shared == 0),
        float(record.label == surface),
        float(support.namesakes <= 1),
        min(support.others_left, 3) / 3,
        float(said is not None and said == is_kind),
        float(said is not None and is_kind is not None and said != is_kind),
        float(shares),
        float(glossed and not shares and is_kind == "person"),
        magnitude / 8,
        float(magnitude > 6),
        min(described, 3) / 3,
        support.confidence,
        support.names_known,
        float(HUMAN in record.types) * (1 - support.names_known),
    ]


@dataclass(frozen=True)
class Abstention:
    """The fitted model: the chance a link is wrong, and the threshold above which the name is minted."""

    weights: tuple[float, ...]
    threshold: float

    def wrong_chance(self, values: list[float]) -> float:
        z = sum(w * v for w, v in zip(self.weights, values))
        return 1 / (1 + math.exp(-z))

    def abstains(self, values: list[float]) -> bool:
        return self.wrong_chance(values) > self.threshold


#: KB sources whose entities are Wikidata's, the kind of KB the abstention was fitted on
WIKIDATA_SOURCES = frozenset({"kgtk-entities", "wikidata-json-dump"})


def fitted_for(kb) -> bool:
    """Whether the abstention applies to ``kb``: live Wikidata or a KB of Wikidata's entities (the shipped
    slice among them). A KB built from the user's own ontology and entities is not what it was fitted on: its
    ids say nothing of prominence, and a name there is the user's own entity."""
    manifest = getattr(kb, "manifest", None)
    if manifest is None:
        return type(kb).__name__ == "WikidataKB"
    if _is_default_kb(getattr(kb, "path", None)):
        return True
    shipped = _shipped_entities()
    return any(
        source.get("kind") in WIKIDATA_SOURCES
        or (source.get("kind") == "entity-jsonl" and Path(source.get("path", "")).resolve() == shipped)
        for source in manifest.get("sources", [])
    )


def _is_default_kb(path) -> bool:
    # The default KB's directory is named by the digest of the shipped data, so it is recognised wherever the
    # checkout that built it lived (a manifest's source path may name a clone that is gone).
    return path is not None and Path(path).resolve() == _default_kb_dir()


@cache
def _default_kb_dir() -> Path:
    return default_kb_dir().resolve()  # asking builds nothing: a user's own KB must not build the slice


@cache
def _shipped_entities() -> Path:
    return Path(str(resources.files("graphwright.kb").joinpath("data", "entities.jsonl.gz"))).resolve()


@cache
def shipped_abstention() -> Abstention:
    """The fitted model shipped with graphwright (abstain.json)."""
    data = json.loads(resources.files("graphwright.linking").joinpath("abstain.json").read_text("utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError("abstain.json was fitted on other features: refit with graphwright.bench.fit_link_abstain")
    return Abstention(tuple(data["weights"]), float(data["threshold"]))
