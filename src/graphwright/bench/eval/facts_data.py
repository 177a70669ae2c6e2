"""bench-facts: users' kind of text with every stated fact (examples/facts; the format is in its README).

``load_fact_texts`` reads and checks the YAML files: every handle a fact names is defined, every
property is a ``P`` id, every value is a date, quantity or string, and the splits are fixed by number
(1-4 dev, 5-8 test, 9-12 dev2). ``python -m graphwright.bench.eval.facts_data [file ...]`` checks them against the default KB
too (the ids exist; each ``kb:`` entity's label is printed next to its name for a reader to compare).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from graphwright.errors import DataNotFoundError, UserError

KINDS = ("news", "biography", "company", "science", "history")
SPLITS = ("dev", "test", "dev2")
#: each kind's texts by number: 1-4 dev, 5-8 test, 9-12 dev2 (written later, blind, to choose between
#: configurations that the rules written on dev favour unequally; issue 60)
_SPLIT_OF = ((4, "dev"), (8, "test"), (12, "dev2"))
VALUE_KINDS = ("date", "quantity", "string")
_ID = re.compile(r"^(?P<kind>[a-z]+)-(?P<n>[1-9]\d*)$")
_DATE = re.compile(r"^\d{3,4}(-\d\d(-\d\d)?)?$")


@dataclass(frozen=True)
class FactEntity:
    name: str
    aliases: tuple[str, ...] = ()
    kb: str | None = None  # the default KB's id, when it holds this very entity

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class FactValue:
    kind: str  # date | quantity | string
    value: str
    unit: str | None = None


Argument = FactEntity | FactValue


@dataclass(frozen=True)
class GoldFact:
    subject: Argument
    relation: str  # a P id, or the text's phrase for an unmappable fact
    object: Argument


@dataclass
class FactText:
    id: str
    kind: str
    split: str
    text: str
    facts: list[GoldFact] = field(default_factory=list)
    optional: list[GoldFact] = field(default_factory=list)
    unmappable: list[GoldFact] = field(default_factory=list)
    entities: dict[str, FactEntity] = field(default_factory=dict)


def default_folder() -> Path:
    from graphwright.bench import ROOT

    return ROOT / "examples" / "facts" / "texts"


def load_fact_texts(folder: Path | str | None = None, split: str | None = None) -> list[FactText]:
    """The texts of ``folder`` (default: examples/facts/texts) in kind and number order, one split or both."""
    folder = Path(folder) if folder else default_folder()
    files = sorted(folder.glob("*.yaml"))
    if not files:
        raise DataNotFoundError(f"no bench-facts texts in {folder}")
    texts = [read_fact_text(path) for path in files]
    texts.sort(key=lambda t: (KINDS.index(t.kind), int(t.id.rsplit("-", 1)[1])))
    return [t for t in texts if split is None or t.split == split]


def read_fact_text(path: Path) -> FactText:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return _parse(raw)
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{path}: {exc}") from exc


def _parse(raw: dict[str, Any]) -> FactText:
    match = _ID.match(str(raw["id"]))
    if not match or match["kind"] != raw["kind"] or raw["kind"] not in KINDS:
        raise ValueError(f"id {raw['id']!r} must be <kind>-<n> with a kind of {', '.join(KINDS)}")
    split = next((name for last, name in _SPLIT_OF if int(match["n"]) <= last), None)
    if split is None or raw.get("split") != split:
        raise ValueError(f"{raw['id']} belongs to the {split or 'no'} split (1-4 dev, 5-8 test, 9-12 dev2)")
    entities = {
        handle: FactEntity(
            name=str(e["name"]), aliases=tuple(map(str, e.get("aliases") or ())), kb=_entity_id(e.get("kb"))
        )
        for handle, e in (raw.get("entities") or {}).items()
    }
    text = FactText(id=raw["id"], kind=raw["kind"], split=split, text=_paragraphs(str(raw["text"])), entities=entities)
    text.facts = [_fact(f, entities, mapped=True) for f in raw.get("facts") or ()]
    text.optional = [_fact(f, entities, mapped=True) for f in raw.get("optional") or ()]
    text.unmappable = [_fact(f, entities, mapped=False) for f in raw.get("unmappable") or ()]
    if not text.facts:
        raise ValueError("no facts")
    return text


def _paragraphs(block: str) -> str:
    """The YAML block's lines joined into paragraphs, as a user's pasted text has them."""
    return "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", block.strip()) if p.strip())


def _fact(row: list, entities: dict[str, FactEntity], mapped: bool) -> GoldFact:
    if not isinstance(row, list) or len(row) != 3:
        raise ValueError(f"a fact is [subject, property, object]: {row!r}")
    subject, relation, obj = row
    relation = str(relation).strip()
    if mapped and not re.fullmatch(r"P[1-9]\d*", relation):
        raise ValueError(f"{relation!r} is not a property id (P...)")
    return GoldFact(_argument(subject, entities), relation, _argument(obj, entities))


def _argument(value: Any, entities: dict[str, FactEntity]) -> Argument:
    if isinstance(value, str):
        if value not in entities:
            raise ValueError(f"{value!r} is not one of the entities")
        return entities[value]
    if isinstance(value, dict) and set(value) == {"kb"}:  # a class the text does not name (P31 human)
        return FactEntity(name="", kb=_entity_id(value["kb"]))
    if isinstance(value, dict):
        kinds = [k for k in VALUE_KINDS if k in value]
        if len(kinds) != 1 or set(value) - {kinds[0], "unit"}:
            raise ValueError(
                f"a value is one of {{date: ...}}, {{quantity: ..., unit: ...}}, {{string: ...}}: {value!r}"
            )
        kind, literal = kinds[0], str(value[kinds[0]]).strip()
        if kind == "date" and not _DATE.match(literal):
            raise ValueError(f"a date is YYYY, YYYY-MM or YYYY-MM-DD: {literal!r}")
        if kind == "quantity" and not re.fullmatch(r"-?\d+(\.\d+)?", literal):
            raise ValueError(f"a quantity is a number: {literal!r}")
        return FactValue(kind, literal, value.get("unit"))
    raise ValueError(f"not an entity handle or a value: {value!r}")


def _entity_id(value: Any) -> str | None:
    if value is None:
        return None
    value = str(value).strip()
    if not re.fullmatch(r"Q[1-9]\d*", value):
        raise ValueError(f"{value!r} is not an entity id (Q...)")
    return value


def check_against_kb(texts: list[FactText], kb) -> list[str]:
    """What a reader should look at: ids the KB lacks, and each kb entity's label beside its name."""
    lines = []
    for text in texts:
        for fact in [*text.facts, *text.optional]:
            if kb.get(fact.relation) is None:
                lines.append(f"ERROR {text.id}: property {fact.relation} is not in the KB")
        for handle, entity in text.entities.items():
            if entity.kb:
                record = kb.get(entity.kb)
                label = record.label if record else "NOT IN THE KB"
                lines.append(f"{text.id}: {handle} = {entity.name!r} -> {entity.kb} {label!r}")
    return lines


def main(argv: list[str]) -> int:
    """Check the files named (or every file of the default folder), each on its own: one file's error
    does not hide another's."""
    from graphwright.kb import open_kb

    paths = [Path(a) for a in argv] or sorted(default_folder().glob("*.yaml"))
    texts, errors = [], 0
    for path in paths:
        try:
            texts.append(read_fact_text(path))
        except UserError as exc:
            print(f"ERROR {exc}")
            errors += 1
    for line in check_against_kb(texts, open_kb("default")):
        print(line)
    facts = sum(len(t.facts) for t in texts)
    print(
        f"{len(texts)} texts ({sum(t.split == 'dev' for t in texts)} dev), {facts} facts, "
        f"{sum(len(t.unmappable) for t in texts)} unmappable; {errors} file(s) with errors"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
