#!/usr/bin/env python
"""Generate the embedded default KB (a compact CC0 Wikidata slice) under src/graphwright/kb/data/.

Inputs (from the shared data root, ``--data`` or GRAPHWRIGHT_DATA_DIR, default ../shared/data):
  wikidata-properties/        property catalogue (GLiREL + KGTK exports)
  wikidata-subgraph-arnold/   KGTK entity dump around Arnold Schwarzenegger
  rebel-sample/, re-docred/   usage evidence for expected types (below); nothing of them is shipped

Outputs (each gzip file must stay under 2 MB; the script fails otherwise):
  properties.jsonl.gz  every property: label, description, aliases, datatype, P1647 super-properties,
                       expected subject_types / value_types (below), P1855 example subjects as
                       [id, label-or-null] (labels resolved from arnold; the example *value* is not in
                       the source data).
  entities.jsonl.gz    the entity slice, generic entity JSONL: id, label, aliases, description,
                       types (P31), subclass_of (P279).

Expected types. The property dump has Wikidata's type-constraint statements but not their classes,
so they are derived from usage by graphwright.kb.expected_types (rule and thresholds in its
docstring: MIN_TYPED 5 typed observations, at most MAX_MISS 5% left uncovered, at most MAX_CLASSES 4
classes), as lists of its 38 BROAD_CLASSES. Evidence, none of it from scoring data: gold triples of
REBEL documents 100-999 (DERIVE_DOCS; 0-99 are held out) and P1855 example subjects, typed by their
P31 in the arnold dump through its full P279 hierarchy; Re-DocRED dev's coarse PER/ORG/LOC types
(its train split is not in the data; benchmarks score its test split). Only roles that Wikidata
declares a type constraint for get classes, only item-valued properties get value types, and a
role without evidence of its own inherits from its nearest constrained P1647 ancestor. Coverage is
thin: of the 2,631 gold triples of documents 100-999, 442 subjects and 1,001 objects have a P31 in
the dump.
Measured with --measure (2026-11-26):
  properties with expected subject types: 59, with value types: 95 (112 in all; they are the
    properties of 152 of the 237 gold triples of REBEL documents 0-99);
  default KB, REBEL documents 0-99, the 15 gold triples whose subject and object are both in the
    slice: 0 rejected (false rejections); with the object swapped for a random other KB entity,
    8 of 15 rejected (true rejections);
  the same documents, every gold entity typed in the dump: 0 of 11 subject checks and 0 of 61
    object checks reject, while 85 of 134 random objects are rejected;
  9-fold cross-validation over documents 100-999 (types derived without the fold, its triples
    checked): 0 of 219 subject and 0 of 898 object checks reject; 1,034 of 1,474 random objects do.

Entity selection rule (the full arnold set, ~61k labelled items, is ~2.1 MB compressed):
  1. an entity needs an English label;
  2. it is kept if it has a description and is not an instance of a "noise" class that adds
     thousands of near-duplicate names but little linking value (NOISE_CLASSES: bilateral
     relations, borders, embassies, Wikimedia pages, legislative terms, outbreaks, ceremonies);
  3. always kept, description or not: everything about Arnold Schwarzenegger, his family, films,
     places and offices (label, alias or description matching ARNOLD_PATTERN; the dump has no
     item-to-item claims, so text is the only handle), every class used as a P31 type of a kept
     entity, the direct P279 superclasses of those classes (one superclass level always
     resolves to a labelled record), and the broad classes of expected types;
  4. aliases that differ only by case, punctuation, spaces or a leading "the" are merged, and at
     most MAX_ALIASES are kept (a handful of items have 30-95);
  5. while the file exceeds the limit, stricter levels apply in turn (rule 3 always holds):
     level 1 drops entities without a P31 type, level 2 keeps 5 aliases (10 for the Arnold
     set), level 3 drops entities without aliases. The level used is printed: with the shared
     data it is level 1 (49,037 of 61,324 entities, 1.98 MB; 11,696 properties, 0.61 MB).
P279 edges are kept for the classes used as types: their direct superclasses plus a shortcut edge
to every broad class they reach in the full arnold hierarchy (true, as P279 is transitive), so that
an entity's types and ONE superclass level (kb.types, kb.superclasses(depth=1)) reach the classes
expected types name; deeper hierarchy needs the full arnold build (graphwright kb build).
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
from collections.abc import Container
from pathlib import Path

from graphwright.bench import ROOT
from graphwright.kb import expected_types as et
from graphwright.kb import sources
from graphwright.kb.records import KBRecord

OUT_DIR = ROOT / "src" / "graphwright" / "kb" / "data"
LIMIT_BYTES = 2_000_000
MAX_ALIASES = 10
#: REBEL documents (file order) whose gold triples may shape expected types: 0-99 are held out, as
#: benchmarks score on the first ones.
DERIVE_DOCS = range(100, 1000)
NOISE_CLASSES = {
    "Q15221623",  # bilateral relation
    "Q133346",
    "Q12413618",
    "Q15104814",
    "Q3089219",  # border, international border, land/maritime boundary
    "Q3917681",  # embassy
    "Q13406463",
    "Q4167836",
    "Q4167410",
    "Q11266439",
    "Q17362920",  # Wikimedia list/category/disambiguation/...
    "Q15238777",
    "Q27031827",
    "Q3241045",
    "Q4504495",  # legislative term, open data portal, outbreak, ceremony
}
ARNOLD_PATTERN = re.compile(
    r"Schwarzenegger|Shriver|Kennedy|Terminator|Conan the|Governor of California|California|"
    r"Thal\b|Graz|Styria|Austria|Los Angeles|Santa Monica|Mr\. Olympia|bodybuild|Predator|Total Recall|"
    r"Kindergarten Cop|True Lies|Twins \(|Junior \(|Commando|Running Man|Red Heat|Last Action Hero",
    re.IGNORECASE,
)


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
    return (
        json.dumps({k: v for k, v in obj.items() if v not in (None, [], "")}, ensure_ascii=False, separators=(",", ":"))
        + "\n"
    )


def property_lines(
    props: sources.Catalogue, labels: dict[str, str], expected: dict[str, dict[et.Role, list[str]]]
) -> list[str]:
    lines = []
    for pid in sorted(props.properties, key=lambda p: int(p[1:])):
        p = props.properties[pid]
        examples = [[q, labels.get(q)] for q, _ in props.example_subjects.get(pid, [])]
        types = expected.get(pid, {})
        lines.append(
            _json_line(
                {
                    "id": pid,
                    "label": p.label,
                    "description": p.description,
                    "aliases": p.aliases,
                    "datatype": p.datatype,
                    "super_properties": p.super_properties,
                    "subject_types": types.get("subject"),
                    "value_types": types.get("value"),
                    "example_subjects": examples,
                }
            )
        )
    return lines


def expected_types(
    data: Path,
    props: sources.Catalogue,
    arnold: sources.Catalogue,
    hierarchy: et.Hierarchy,
    docs: Container[int] = DERIVE_DOCS,
) -> dict[str, dict[et.Role, list[str]]]:
    """Expected subject/value classes per property (rule in graphwright.kb.expected_types)."""
    types = {q: r.types for q, r in arnold.entities.items()}
    evidence = et.Evidence()
    et.add_rebel(evidence, data / "rebel-sample" / "sample.jsonl.gz", docs, types, hierarchy)
    et.add_examples(evidence, props.example_subjects, types, hierarchy)
    et.add_docred(evidence, data / "re-docred" / "dev_revised.json.gz")
    roles: dict[str, et.Role] = {"subject type": "subject", "value type": "value"}
    constrained = {pid: [roles[c] for c in p.unchecked_constraints] for pid, p in props.properties.items()}
    return et.derive(
        evidence,
        {pid: p.datatype for pid, p in props.properties.items()},
        constrained,
        {pid: p.super_properties for pid, p in props.properties.items()},
        hierarchy.generality(types),
    )


def _about_arnold(r: KBRecord) -> bool:
    return any(ARNOLD_PATTERN.search(t) for t in (r.label, r.description, *r.aliases))


def select_entities(arnold: sources.Catalogue, level: int) -> tuple[set[str], set[str]]:
    """(kept entity ids, type classes) for rule level 0-3 (see the module docstring)."""
    ents = arnold.entities
    keep = {
        q
        for q, r in ents.items()
        if r.label
        and r.description
        and not NOISE_CLASSES.intersection(r.types)
        and (level < 1 or r.types)
        and (level < 3 or r.aliases)
    }
    keep |= {q for q, r in ents.items() if _about_arnold(r)}
    type_classes = {t for q in keep for t in ents[q].types}
    supers = {s for t in type_classes for s in arnold.subclass_of.get(t, ())}
    kept = keep | type_classes | supers | set(et.BROAD_CLASSES)
    return {q for q in kept if q in ents and ents[q].label}, type_classes


def entity_lines(
    arnold: sources.Catalogue, keep: set[str], type_classes: set[str], max_aliases: int, hierarchy: et.Hierarchy
) -> list[str]:
    """One JSON line per kept entity; the Arnold set keeps MAX_ALIASES aliases at every level. A type
    class lists its direct superclasses plus every broad class it reaches (shortcut edges, true
    since P279 is transitive), so that one superclass level reaches the expected types."""
    lines = []
    for qid in sorted(keep, key=lambda q: int(q[1:])):
        r = arnold.entities[qid]
        cap = MAX_ALIASES if _about_arnold(r) else max_aliases
        supers = []
        if qid in type_classes:
            supers = sorted(
                set(arnold.subclass_of.get(qid, ())) | (hierarchy.reach(qid) - {qid}), key=lambda q: int(q[1:])
            )
        lines.append(
            _json_line(
                {
                    "id": qid,
                    "label": r.label,
                    "description": r.description,
                    "aliases": dedupe_aliases(r)[:cap],
                    "types": r.types,
                    "subclass_of": supers,
                }
            )
        )
    return lines


# ---- measurement (--measure): the numbers in the docstring --------------------------------------


def _gold(data: Path, docs: range) -> list[tuple[str, str, str]]:
    out = []
    with gzip.open(data / "rebel-sample" / "sample.jsonl.gz", "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i in docs:
                out += [
                    (t["subject"]["uri"], t["predicate"]["uri"], t["object"]["uri"])
                    for t in json.loads(line)["triples"]
                    if t["object"]["uri"].startswith("Q")
                ]
    return out


def _has_expected_types(record: KBRecord | None) -> bool:
    assert record is not None  # the gold triples were kept only where the KB has the property
    return bool(record.subject_types or record.value_types)


def _other(rng, ids: list[str], not_this: str) -> str:
    while (pick := rng.choice(ids)) == not_this:
        pass
    return pick


def measure_kb(data: Path, out: Path) -> str:
    """Semantic validation on the built default KB: gold triples of REBEL documents 0-99 whose ends
    are both in it, as they are and with the object swapped for a random other KB entity."""
    import random
    import tempfile

    from graphwright.kb import LocalKB, build_kb
    from graphwright.tools.semantic_validation import semantic_validation

    ids = sorted(json.loads(line)["id"] for line in gzip.open(out / "entities.jsonl.gz", "rt", encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        path = build_kb(
            Path(tmp) / "kb",
            properties_dir=False,
            arnold_dir=False,
            property_files=[out / "properties.jsonl.gz"],
            entity_files=[out / "entities.jsonl.gz"],
        )
        with LocalKB(path) as kb:
            gold = [t for t in _gold(data, range(100)) if kb.contains(t[0]) and kb.contains(t[2]) and kb.get(t[1])]
            rng = random.Random(0)
            swapped = [(s, p, _other(rng, ids, o)) for s, p, o in gold]
            rejected = []
            for triples in (gold, swapped):
                checks = semantic_validation(kb, "\n".join(f"wd:{s} wdt:{p} wd:{o} ." for s, p, o in triples))
                rejected.append(sum(c.verdict == "invalid" for c in checks))
            typed = sum(1 for s, p, o in gold if _has_expected_types(kb.get(p)))
    return (
        f"default KB, REBEL docs 0-99: {len(gold)} gold triples with both ends in the KB ({typed} of them with "
        f"a property that has expected types); rejected: {rejected[0]} gold, {rejected[1]} with a random object"
    )


def measure_roles(
    data: Path, props: sources.Catalogue, arnold: sources.Catalogue, hierarchy: et.Hierarchy
) -> list[str]:
    """Type checks on REBEL gold entities typed in the dump (not only those in the slice): documents
    0-99 against the shipped types, and each 100-document fold of 100-999 against types derived
    without it (9-fold cross-validation), plus the same triples with a random dump entity as object."""
    import random

    types = {q: r.types for q, r in arnold.entities.items() if r.types}
    pool = sorted(types)
    lines = []
    folds = [(range(100), DERIVE_DOCS)] + [
        (range(a, a + 100), [i for i in DERIVE_DOCS if not a <= i < a + 100]) for a in range(100, 1000, 100)
    ]
    totals: dict[str, list[int]] = {}
    for n, (held, used) in enumerate(folds):
        expected = expected_types(data, props, arnold, hierarchy, used)
        rng = random.Random(n)
        counts = totals.setdefault("held-out 0-99" if n == 0 else "9-fold 100-999", [0] * 6)
        for s, p, o in _gold(data, held):
            exp = expected.get(p, {})
            sides: tuple[tuple[str, et.Role], ...] = ((s, "subject"), (o, "value"), (_other(rng, pool, o), "value"))
            for i, (ent, role) in enumerate(sides):
                kinds = hierarchy.kinds(types.get(ent, ()))
                if exp.get(role) and kinds is not None:
                    counts[2 * i] += 1
                    counts[2 * i + 1] += not kinds & set(exp[role])
    for name, c in totals.items():
        lines.append(
            f"{name}: subjects checked {c[0]}, rejected {c[1]}; objects checked {c[2]}, rejected {c[3]}; "
            f"random objects checked {c[4]}, rejected {c[5]}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--data", type=Path, default=Path(os.environ.get("GRAPHWRIGHT_DATA_DIR") or ROOT.parent / "shared" / "data")
    )
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    ap.add_argument(
        "--measure", action="store_true", help="also print the validation numbers of the docstring (~1 min)"
    )
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
    missing = sorted(set(et.BROAD_CLASSES) - set(labels))
    if missing:
        raise SystemExit(f"broad classes without a label in the entity dump: {', '.join(missing)}")
    hierarchy = et.Hierarchy(arnold.subclass_of)
    expected = expected_types(args.data, props, arnold, hierarchy)
    outputs = {"properties.jsonl.gz": _gzip_bytes(property_lines(props, labels, expected))}
    for level in range(4):
        keep, type_classes = select_entities(arnold, level)
        data = _gzip_bytes(entity_lines(arnold, keep, type_classes, MAX_ALIASES if level < 2 else 5, hierarchy))
        if len(data) < LIMIT_BYTES:
            break
    outputs["entities.jsonl.gz"] = data
    args.out.mkdir(parents=True, exist_ok=True)
    for name, blob in outputs.items():
        if len(blob) >= LIMIT_BYTES:
            raise SystemExit(f"{name} is {len(blob):,} bytes compressed, over the {LIMIT_BYTES:,} limit")
        (args.out / name).write_bytes(blob)
        print(f"{name}: {len(blob):,} bytes")
    print(
        f"entities kept: {len(keep):,} of {len(arnold.entities):,} (selection level {level}); "
        f"properties: {len(props.properties):,}; with expected subject types: "
        f"{sum('subject' in t for t in expected.values()):,}, "
        f"value types: {sum('value' in t for t in expected.values()):,}"
    )
    if args.measure:
        print("\n".join([measure_kb(args.data, args.out), *measure_roles(args.data, props, arnold, hierarchy)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
