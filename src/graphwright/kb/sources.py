"""Readers for every KB source format; each returns a :class:`Catalogue`.

Formats:

* Wikidata property catalogue directory (``wikidata-properties`` layout): GLiREL
  ``all_wikidata_properties.json.gz`` (labels, descriptions; newer) and KGTK exports under ``kgtk/``
  (labels, aliases, descriptions, datatypes, property claims with P1647 and P1855).
* KGTK entity directory (``wikidata-subgraph-arnold`` layout): labels, aliases, descriptions,
  ``derived.P31``, ``derived.P279``, property datatypes and property-valued claims (P1647).
* REBEL JSONL (``rebel-sample/sample.jsonl.gz``): entity ids with surface forms.
* Generic entity JSONL (plain or .gz), one object per line::

      {"id": "Q42", "label": "Douglas Adams", "aliases": ["Douglas Noël Adams"],
       "description": "English writer", "types": ["Q5"], "subclass_of": [], "sitelinks": 120}

  ``id`` and ``label`` are required; ids are Wikidata-style (Q... for entities); ``sitelinks``
  (the item's number of Wikimedia pages, a popularity prior) is optional.
* Generic property JSONL: ``{"id": "P102", "label", "aliases", "description", "datatype",
  "super_properties": ["P463"], "subject_types": ["Q5"], "value_types": ["Q7278"],
  "unchecked_constraints": ["value type"],
  "example_subjects": [["Q83396", "Eleanor Roosevelt"], ["Q16977", null]]}``.
  This is the format of the packaged default slice, and of a Wikidata JSON dump import
  (:mod:`graphwright.kb.wikidata_dump`).
* An RDFS ontology in Turtle (see :mod:`graphwright.kb.ontology`): labels, comments, rdf:type,
  rdfs:subClassOf, rdfs:subPropertyOf, and rdfs:domain / rdfs:range as type constraints.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from graphwright.errors import UserError
from graphwright.kb.kgtk import parse_literal, read_tsv, require_file
from graphwright.kb.namespaces import is_wikidata_id, local_id
from graphwright.kb.records import KBRecord

#: Wikidata constraint items (values of P2302) that restrict types, and their names here.
TYPE_CONSTRAINTS = {"Q21503250": "subject type", "Q21510865": "value type"}


@dataclass
class Catalogue:
    """Records from one source, plus what is needed to finish them after merging."""

    properties: dict[str, KBRecord] = field(default_factory=dict)
    entities: dict[str, KBRecord] = field(default_factory=dict)
    subclass_of: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    #: P1855 "Wikidata property example": pid -> [(subject id, subject label or None)].
    example_subjects: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)
    source: dict = field(default_factory=dict)


def _open_text(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def _jsonl(path: Path):
    """(line number, object) for each non-blank line; a malformed line is the user's to fix."""
    with _open_text(path) as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield n, json.loads(line)
                except ValueError as exc:
                    raise UserError(f"{path}:{n}: not valid JSON ({exc})") from None


def _record(rid: str, **kw) -> KBRecord:
    return KBRecord(id=rid, kind="property" if rid.startswith("P") else "entity", **kw)


def ordered_unique(values, exclude: str = "") -> list[str]:
    seen, out = {exclude.casefold()}, []
    for v in values:
        if v and v.casefold() not in seen:
            seen.add(v.casefold())
            out.append(v)
    return out


def read_wikidata_properties(directory: Path) -> Catalogue:
    """The property catalogue: GLiREL wins for label/description (newer); KGTK adds the rest."""
    glirel = require_file(directory / "all_wikidata_properties.json.gz", "GLiREL property list")
    kgtk = directory / "kgtk"
    files = {
        n: require_file(kgtk / f, f"KGTK {n}")
        for n, f in (
            ("labels", "labels.property.en.tsv.gz"),
            ("aliases", "aliases.property.en.tsv.gz"),
            ("descriptions", "descriptions.property.en.tsv.gz"),
            ("datatypes", "metadata.property.datatypes.tsv.gz"),
            ("claims", "claims.properties.tsv.gz"),
        )
    }
    labels: dict[str, str] = {}
    descs: dict[str, str] = {}
    old_labels: dict[str, str] = {}
    with gzip.open(glirel, "rt", encoding="utf-8") as fh:
        for row in json.load(fh):
            pid = local_id(row.get("property", ""))
            if is_wikidata_id(pid):
                labels[pid] = row.get("propertyLabel") or ""
                descs[pid] = row.get("propertyDescription") or ""
    for row in read_tsv(files["labels"]):
        old_labels[row["node1"]] = parse_literal(row["node2"])
    for row in read_tsv(files["descriptions"]):
        if not descs.get(row["node1"]):  # GLiREL lacks 93 descriptions; KGTK may have them
            descs[row["node1"]] = parse_literal(row["node2"])
    aliases: dict[str, list[str]] = defaultdict(list)
    for row in read_tsv(files["aliases"]):
        aliases[row["node1"]].append(parse_literal(row["node2"]))
    datatypes = {r["node1"]: r["node2"] for r in read_tsv(files["datatypes"]) if r.get("label") == "datatype"}
    supers: dict[str, list[str]] = defaultdict(list)
    examples: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
    constraints: dict[str, list[str]] = defaultdict(list)
    for row in read_tsv(files["claims"]):
        if row["label"] == "P1647" and is_wikidata_id(row["node2"]):
            supers[row["node1"]].append(row["node2"])
        elif row["label"] == "P2302" and row["node2"] in TYPE_CONSTRAINTS:
            constraints[row["node1"]].append(TYPE_CONSTRAINTS[row["node2"]])
        elif row["label"] == "P1855" and is_wikidata_id(row["node2"]):
            examples[row["node1"]].append((row["node2"], None))
    cat = Catalogue(source={"kind": "wikidata-properties", "path": str(directory.resolve())})
    for pid in sorted(set(labels) | set(old_labels), key=lambda p: int(p[1:])):
        label = labels.get(pid) or old_labels.get(pid, "")
        cat.properties[pid] = _record(
            pid,
            label=label,
            description=descs.get(pid, ""),
            # A label renamed since the 2021 KGTK snapshot stays findable as an alias.
            aliases=ordered_unique([old_labels.get(pid, ""), *aliases.get(pid, [])], exclude=label),
            datatype=datatypes.get(pid),
            super_properties=ordered_unique(supers.get(pid, [])),
            # the dump has the P2302 statements but not their P2308 classes: known to exist, not checkable
            unchecked_constraints=ordered_unique(constraints.get(pid, [])),
        )
    cat.example_subjects = dict(examples)
    return cat


def read_kgtk_entities(directory: Path) -> Catalogue:
    """A KGTK entity dump (arnold layout): Q records plus the P records its files describe."""
    files = {
        n: require_file(directory / f, f"KGTK {n}")
        for n, f in (
            ("labels", "labels.en.tsv.gz"),
            ("aliases", "aliases.en.tsv.gz"),
            ("descriptions", "descriptions.en.tsv.gz"),
            ("P31", "derived.P31.tsv.gz"),
            ("P279", "derived.P279.tsv.gz"),
        )
    }
    labels = {r["node1"]: parse_literal(r["node2"]) for r in read_tsv(files["labels"]) if is_wikidata_id(r["node1"])}
    descs = {r["node1"]: parse_literal(r["node2"]) for r in read_tsv(files["descriptions"])}
    aliases: dict[str, list[str]] = defaultdict(list)
    for r in read_tsv(files["aliases"]):
        aliases[r["node1"]].append(parse_literal(r["node2"]))
    types: dict[str, list[str]] = defaultdict(list)
    for r in read_tsv(files["P31"]):
        if is_wikidata_id(r["node2"]):
            types[r["node1"]].append(r["node2"])
    cat = Catalogue(source={"kind": "kgtk-entities", "path": str(directory.resolve())})
    for r in read_tsv(files["P279"]):
        if is_wikidata_id(r["node1"]) and is_wikidata_id(r["node2"]):
            cat.subclass_of[r["node1"]].add(r["node2"])
    # Optional extras: datatypes and P1647 of the properties the dump mentions.
    datatypes: dict[str, str] = {}
    dt_file = directory / "metadata.property.datatypes.tsv.gz"
    if dt_file.is_file():
        datatypes = {
            r["node1"]: r["node2"]
            for r in read_tsv(dt_file)
            if r.get("label") == "datatype" and is_wikidata_id(r["node1"])
        }
    supers: dict[str, list[str]] = defaultdict(list)
    claims = directory / "claims.wikibase-property.tsv.gz"
    if claims.is_file():
        for r in read_tsv(claims):
            if r["label"] == "P1647" and is_wikidata_id(r["node1"]) and is_wikidata_id(r["node2"]):
                supers[r["node1"]].append(r["node2"])
    for rid, label in labels.items():
        rec = _record(
            rid,
            label=label,
            aliases=ordered_unique(aliases.get(rid, []), exclude=label),
            description=descs.get(rid, ""),
        )
        if rec.kind == "entity":
            rec.types = ordered_unique(types.get(rid, []))
            cat.entities[rid] = rec
        else:
            rec.datatype = datatypes.get(rid)
            rec.super_properties = ordered_unique(supers.get(rid, []))
            cat.properties[rid] = rec
    return cat


def read_rebel_entities(path: Path) -> Catalogue:
    """REBEL entities: label = most frequent surface form, the other forms become aliases."""
    require_file(path, "REBEL JSONL")
    forms: dict[str, Counter] = defaultdict(Counter)
    for _, doc in _jsonl(path):
        if is_wikidata_id(str(doc.get("uri", ""))) and doc.get("title"):
            forms[doc["uri"]][doc["title"]] += 1
        mentions = list(doc.get("entities", []))
        for t in doc.get("triples", []):
            mentions += [t.get("subject", {}), t.get("object", {})]
        for m in mentions:
            uri, surface = str(m.get("uri") or ""), (m.get("surfaceform") or "").strip()
            # Literal objects (dates, quantities) carry no Q id and are not KB entities.
            if uri.startswith("Q") and is_wikidata_id(uri) and surface:
                forms[uri][surface] += 1
    cat = Catalogue(source={"kind": "rebel", "path": str(path.resolve())})
    for qid, counter in forms.items():
        ranked = [s for s, _ in counter.most_common()]
        cat.entities[qid] = _record(qid, label=ranked[0], aliases=ordered_unique(ranked[1:], exclude=ranked[0]))
    return cat


def read_entity_jsonl(path: Path) -> Catalogue:
    """Generic entity JSONL (see the module docstring)."""
    require_file(path, "entity JSONL")
    cat = Catalogue(source={"kind": "entity-jsonl", "path": str(path.resolve())})
    for n, obj in _jsonl(path):
        rid, label = str(obj.get("id", "")), str(obj.get("label") or "")
        if not is_wikidata_id(rid) or not label:
            raise UserError(f"{path}:{n}: every line needs a Wikidata-style 'id' and a 'label'")
        sitelinks = obj.get("sitelinks")
        if sitelinks is not None and (type(sitelinks) is not int or sitelinks < 0):
            raise UserError(f"{path}:{n}: 'sitelinks' must be a count (a whole number >= 0), got {sitelinks!r}")
        rec = _record(
            rid,
            label=label,
            description=obj.get("description") or "",
            aliases=ordered_unique(obj.get("aliases") or [], exclude=label),
            types=[t for t in obj.get("types") or [] if is_wikidata_id(t)],
            sitelinks=sitelinks,
        )
        (cat.properties if rec.kind == "property" else cat.entities)[rid] = rec
        for parent in obj.get("subclass_of") or []:
            if is_wikidata_id(parent):
                cat.subclass_of[rid].add(parent)
    return cat


def read_property_jsonl(path: Path) -> Catalogue:
    """Generic property JSONL (the packaged slice format, see the module docstring)."""
    require_file(path, "property JSONL")
    cat = Catalogue(source={"kind": "property-jsonl", "path": str(path.resolve())})
    for n, obj in _jsonl(path):
        pid, label = str(obj.get("id", "")), str(obj.get("label") or "")
        if not (pid.startswith("P") and is_wikidata_id(pid)):
            raise UserError(f"{path}:{n}: 'id' must be a property id like P31")
        cat.properties[pid] = _record(
            pid,
            label=label,
            description=obj.get("description") or "",
            aliases=ordered_unique(obj.get("aliases") or [], exclude=label),
            datatype=obj.get("datatype"),
            super_properties=[p for p in obj.get("super_properties") or [] if is_wikidata_id(p)],
            subject_types=[t for t in obj.get("subject_types") or [] if is_wikidata_id(t)],
            value_types=[t for t in obj.get("value_types") or [] if is_wikidata_id(t)],
            unchecked_constraints=[c for c in obj.get("unchecked_constraints") or [] if c in TYPE_CONSTRAINTS.values()],
        )
        subjects = [(s[0], s[1] if len(s) > 1 else None) for s in obj.get("example_subjects") or [] if s]
        if subjects:
            cat.example_subjects[pid] = subjects
    return cat
