#!/usr/bin/env python
"""Generate the embedded default KB (a compact CC0 Wikidata slice) under src/graphwright/kb/data/.

Inputs (from the shared data root, ``--data`` or GRAPHWRIGHT_DATA_DIR, default ../shared/data):
  wikidata-properties/        property catalogue (GLiREL + KGTK exports)
  wikidata-subgraph-arnold/   KGTK entity dump around Arnold Schwarzenegger

Outputs (each gzip file must stay under 2 MB; the script fails otherwise):
  properties.jsonl.gz  every property: label, description, aliases, datatype, P1647 super-properties,
                       P1855 example subjects as [id, label-or-null] (labels resolved from arnold;
                       the example *value* is not in the source data).
  entities.jsonl.gz    the entity slice, generic entity JSONL: id, label, aliases, description,
                       types (P31), subclass_of (P279).

Entity selection rule (the full arnold set, ~61k labelled items, is ~2.1 MB compressed):
  1. an entity needs an English label;
  2. it is kept if it has a description and is not an instance of a "noise" class that adds
     thousands of near-duplicate names but little linking value (NOISE_CLASSES: bilateral
     relations, borders, embassies, Wikimedia pages, legislative terms, outbreaks, ceremonies);
  3. always kept, description or not: everything about Arnold Schwarzenegger, his family, films,
     places and offices (label, alias or description matching ARNOLD_PATTERN; the dump has no
     item-to-item claims, so text is the only handle), every class used as a P31 type of a kept
     entity, and the direct P279 superclasses of those classes (one superclass level always
     resolves to a labelled record);
  4. aliases that differ only by case, punctuation, spaces or a leading "the" are merged, and at
     most MAX_ALIASES are kept (a handful of items have 30-95);
  5. while the file exceeds the limit, stricter levels apply in turn (rule 3 always holds):
     level 1 drops entities without a P31 type, level 2 keeps 5 aliases (10 for the Arnold
     set), level 3 drops entities without aliases. The level used is printed: with the shared
     data it is level 1 (49,037 of 61,324 entities, 1.96 MB; 11,696 properties, 0.61 MB).
P279 edges are kept for the classes used as types (one superclass level, as the semantic
validation tools need); deeper hierarchy needs the full arnold build (graphwright kb build).
Output is deterministic (sorted ids, gzip mtime 0), so the default KB's cache key only changes
when the data does.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from graphwright.kb import sources  # noqa: E402
from graphwright.kb.records import KBRecord  # noqa: E402

OUT_DIR = ROOT / "src" / "graphwright" / "kb" / "data"
LIMIT_BYTES = 2_000_000
MAX_ALIASES = 10
NOISE_CLASSES = {
    "Q15221623",  # bilateral relation
    "Q133346", "Q12413618", "Q15104814", "Q3089219",  # border, international border, land/maritime boundary
    "Q3917681",  # embassy
    "Q13406463", "Q4167836", "Q4167410", "Q11266439", "Q17362920",  # Wikimedia list/category/disambiguation/...
    "Q15238777", "Q27031827", "Q3241045", "Q4504495",  # legislative term, open data portal, outbreak, ceremony
}
ARNOLD_PATTERN = re.compile(
    r"Schwarzenegger|Shriver|Kennedy|Terminator|Conan the|Governor of California|California|"
    r"Thal\b|Graz|Styria|Austria|Los Angeles|Santa Monica|Mr\. Olympia|bodybuild|Predator|Total Recall|"
    r"Kindergarten Cop|True Lies|Twins \(|Junior \(|Commando|Running Man|Red Heat|Last Action Hero",
    re.IGNORECASE)


_THE = re.compile(r"^the\s+", re.IGNORECASE)


def _alias_key(name: str) -> str:
    return re.sub(r"[\W_]+", "", _THE.sub("", name.strip()).casefold())


def dedupe_aliases(r: KBRecord) -> list[str]:
    """Drop aliases that differ from the label or another alias only by case, punctuation, spaces
    or a leading "the" (``U.S.``/``US``/``the US``); prefer the variant without "the"."""
    groups: dict[str, str] = {}
    label_key = _alias_key(r.label)
    for a in r.aliases:
        k = _alias_key(a)
        if not k or k == label_key:
            continue
        if k not in groups or (_THE.match(groups[k]) and not _THE.match(a)):
            groups[k] = a
    return list(groups.values())


def _gzip_bytes(lines: list[str]) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9, mtime=0) as gz:
        gz.write("".join(lines).encode("utf-8"))
    return buf.getvalue()


def _json_line(obj: dict) -> str:
    return json.dumps({k: v for k, v in obj.items() if v not in (None, [], "")},
                      ensure_ascii=False, separators=(",", ":")) + "\n"


def property_lines(props: sources.Catalogue, labels: dict[str, str]) -> list[str]:
    lines = []
    for pid in sorted(props.properties, key=lambda p: int(p[1:])):
        p = props.properties[pid]
        examples = [[q, labels.get(q)] for q, _ in props.example_subjects.get(pid, [])]
        lines.append(_json_line({"id": pid, "label": p.label, "description": p.description, "aliases": p.aliases,
                                 "datatype": p.datatype, "super_properties": p.super_properties,
                                 "example_subjects": examples}))
    return lines


def _about_arnold(r: KBRecord) -> bool:
    return any(ARNOLD_PATTERN.search(t) for t in (r.label, r.description, *r.aliases))


def select_entities(arnold: sources.Catalogue, level: int) -> tuple[set[str], set[str]]:
    """(kept entity ids, type classes) for rule level 0-3 (see the module docstring)."""
    ents = arnold.entities
    keep = {q for q, r in ents.items()
            if r.label and r.description and not NOISE_CLASSES.intersection(r.types)
            and (level < 1 or r.types) and (level < 3 or r.aliases)}
    keep |= {q for q, r in ents.items() if _about_arnold(r)}
    type_classes = {t for q in keep for t in ents[q].types}
    supers = {s for t in type_classes for s in arnold.subclass_of.get(t, ())}
    return {q for q in keep | type_classes | supers if q in ents and ents[q].label}, type_classes


def entity_lines(arnold: sources.Catalogue, keep: set[str], type_classes: set[str], max_aliases: int) -> list[str]:
    """One JSON line per kept entity; the Arnold set keeps MAX_ALIASES aliases at every level."""
    lines = []
    for qid in sorted(keep, key=lambda q: int(q[1:])):
        r = arnold.entities[qid]
        cap = MAX_ALIASES if _about_arnold(r) else max_aliases
        supers = sorted(arnold.subclass_of.get(qid, ()), key=lambda q: int(q[1:])) if qid in type_classes else []
        lines.append(_json_line({"id": qid, "label": r.label, "description": r.description,
                                 "aliases": dedupe_aliases(r)[:cap], "types": r.types, "subclass_of": supers}))
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path,
                    default=Path(os.environ.get("GRAPHWRIGHT_DATA_DIR") or ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    args = ap.parse_args(argv)
    props = sources.read_wikidata_properties(args.data / "wikidata-properties")
    arnold = sources.read_kgtk_entities(args.data / "wikidata-subgraph-arnold")
    # Arnold's property files add datatypes and P1647 edges the 2021 KGTK export lacks.
    for pid, extra in arnold.properties.items():
        if pid in props.properties:
            p = props.properties[pid]
            p.datatype = p.datatype or extra.datatype
            p.super_properties = sources.ordered_unique([*p.super_properties, *extra.super_properties])
    labels = {q: r.label for q, r in arnold.entities.items()}
    outputs = {"properties.jsonl.gz": _gzip_bytes(property_lines(props, labels))}
    for level in range(4):
        keep, type_classes = select_entities(arnold, level)
        data = _gzip_bytes(entity_lines(arnold, keep, type_classes, MAX_ALIASES if level < 2 else 5))
        if len(data) < LIMIT_BYTES:
            break
    outputs["entities.jsonl.gz"] = data
    args.out.mkdir(parents=True, exist_ok=True)
    for name, blob in outputs.items():
        if len(blob) >= LIMIT_BYTES:
            raise SystemExit(f"{name} is {len(blob):,} bytes compressed, over the {LIMIT_BYTES:,} limit")
        (args.out / name).write_bytes(blob)
        print(f"{name}: {len(blob):,} bytes")
    print(f"entities kept: {len(keep):,} of {len(arnold.entities):,} (selection level {level}); "
          f"properties: {len(props.properties):,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
