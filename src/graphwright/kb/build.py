"""Build a KB directory from source files.

A KB directory holds ``kb.sqlite`` (records, names, FTS5), ``rdf/`` (pyoxigraph store),
``manifest.json`` and, once searched, ``embeddings/<model>/`` (vector caches).
It is written to a temporary sibling and renamed into place, so readers never see half a KB.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from graphwright import paths
from graphwright.errors import UserError
from graphwright.kb import sources
from graphwright.kb.embeddings import EMBEDDERS
from graphwright.kb.index_db import DB_NAME, write_db
from graphwright.kb.rdf import STORE_NAME, write_store
from graphwright.kb.records import KBRecord
from graphwright.kb.sources import Catalogue

MANIFEST = "manifest.json"
FORMAT_VERSION = 1
MAX_EXAMPLES = 3


def _default(name: str) -> Path:
    return paths.data_dir() / name


def _merge_record(base: KBRecord, extra: KBRecord) -> KBRecord:
    """``base`` has priority; ``extra`` fills gaps, and a different label of ``extra`` becomes an alias."""
    label = base.label or extra.label
    names = [*base.aliases, extra.label, *extra.aliases]
    return base.model_copy(
        update={
            "label": label,
            "aliases": sources.ordered_unique(names, exclude=label),
            "description": base.description or extra.description,
            "types": sources.ordered_unique([*base.types, *extra.types]),
            "datatype": base.datatype or extra.datatype,
            "super_properties": sources.ordered_unique([*base.super_properties, *extra.super_properties]),
            "examples": sources.ordered_unique([*base.examples, *extra.examples]),
            # explicit classes (a user ontology, JSONL) win; otherwise keep what the other source knows
            "subject_types": base.subject_types or extra.subject_types,
            "value_types": base.value_types or extra.value_types,
            "unchecked_constraints": sources.ordered_unique(
                [*base.unchecked_constraints, *extra.unchecked_constraints]
            ),
            "sitelinks": base.sitelinks if base.sitelinks is not None else extra.sitelinks,
        }
    )


def merge(catalogues: Sequence[Catalogue]) -> Catalogue:
    """Union of catalogues; earlier ones win for labels, descriptions and datatypes."""
    out = Catalogue()
    for cat in catalogues:
        for target, recs in ((out.properties, cat.properties), (out.entities, cat.entities)):
            for rid, rec in recs.items():
                target[rid] = _merge_record(target[rid], rec) if rid in target else rec
        for child, parents in cat.subclass_of.items():
            out.subclass_of[child] |= parents
        for pid, subjects in cat.example_subjects.items():
            out.example_subjects.setdefault(pid, []).extend(subjects)
    return out


def example_texts(prop: KBRecord, subjects: Iterable[tuple[str, str | None]], labels: Mapping[str, str]) -> list[str]:
    """P1855 gives only the example's subject item (its value qualifier is not in the data), so an
    example reads ``"<subject label> <property label> …"``; subjects without a known label are skipped."""
    out: list[str] = []
    for qid, label in subjects:
        name = label or labels.get(qid)
        text = f"{name} {prop.label} …" if name and prop.label else None
        if text and text not in out:
            out.append(text)
        if len(out) == MAX_EXAMPLES:
            break
    return out


def _ancestors(start: Iterable[str], subclass_of: Mapping[str, set[str]]) -> set[str]:
    seen, todo = set(), list(start)
    while todo:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo.extend(subclass_of.get(c, ()))
    return seen


def write_kb(
    out_dir: Path | str,
    *,
    properties: dict[str, KBRecord],
    entities: dict[str, KBRecord],
    support: dict[str, KBRecord],
    subclass_of: Mapping[str, set[str]],
    sources_info: list[dict],
    embedder: str = "minilm",
    overwrite: bool = True,
) -> Path:
    """Write a KB directory atomically. ``support`` records are stored but never returned by search."""
    factory = EMBEDDERS.get(embedder)  # fail now, not on the first search, if the name is wrong
    out = Path(out_dir)
    if out.exists() and not (out / MANIFEST).is_file() and any(out.iterdir()):
        raise UserError(f"{out} exists and is not a graphwright KB directory; choose another output path")
    if (out / MANIFEST).is_file() and not overwrite:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{uuid.uuid4().hex[:8]}"
    tmp.mkdir()
    t0 = time.perf_counter()
    try:
        rows = [(r, True) for r in properties.values()] + [(r, True) for r in entities.values()]
        rows += [(r, False) for rid, r in support.items() if rid not in entities and rid not in properties]
        counts = write_db(tmp / DB_NAME, rows, meta={"format": str(FORMAT_VERSION), "embedder": embedder})
        counts["triples"] = write_store(tmp / STORE_NAME, (r for r, _ in rows), subclass_of)
        counts["subclass_edges"] = sum(len(v) for v in subclass_of.values())
        counts["properties_with_examples"] = sum(1 for p in properties.values() if p.examples)
        manifest = {
            "format": FORMAT_VERSION,
            "built": datetime.now(UTC).isoformat(timespec="seconds"),
            "write_seconds": round(time.perf_counter() - t0, 2),
            "embedder": embedder,
            "embedding_model": getattr(factory, "name", embedder),
            "sources": sources_info,
            "counts": counts,
        }
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        if out.exists() and overwrite:
            shutil.rmtree(out)
        try:
            os.replace(tmp, out)
        except OSError:
            if overwrite or not (out / MANIFEST).is_file():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # another process finished the same build first
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _finish_properties(cat: Catalogue, labels: Mapping[str, str]) -> dict[str, KBRecord]:
    for pid, subjects in cat.example_subjects.items():
        if pid in cat.properties:
            prop = cat.properties[pid]
            prop.examples = sources.ordered_unique([*prop.examples, *example_texts(prop, subjects, labels)])
    return cat.properties


def build_kb(
    out_dir: Path | str,
    *,
    properties_dir: Path | str | None | bool = None,
    arnold_dir: Path | str | None | bool = None,
    rebel_path: Path | str | None | bool = None,
    entity_files: Sequence[Path | str] = (),
    property_files: Sequence[Path | str] = (),
    ontology_files: Sequence[Path | str] = (),
    catalogues: Sequence[Catalogue] = (),
    embedder: str = "minilm",
    overwrite: bool = True,
) -> Path:
    """Build a KB from any mix of sources.

    ``properties_dir`` / ``arnold_dir``: None = the default folder under the data root
    (``GRAPHWRIGHT_DATA_DIR``, default ``../shared/data``), False = leave the source out.
    ``rebel_path``: None/False = leave out, True = the default ``rebel-sample/sample.jsonl.gz``.
    ``entity_files`` / ``property_files``: generic JSONL files (format in :mod:`graphwright.kb.sources`);
    ``ontology_files``: RDFS ontologies (:mod:`graphwright.kb.ontology`). Both take priority over the
    other sources for labels, descriptions and type constraints.
    ``catalogues``: sources already read (e.g. a Wikidata JSON dump import, :mod:`graphwright.kb.wikidata_dump`),
    ranked after the JSONL files and before the KGTK folders.
    """
    from graphwright.kb.ontology import read_rdf_ontology

    cats: list[Catalogue] = [read_rdf_ontology(Path(p)) for p in ontology_files]
    cats += [sources.read_property_jsonl(Path(p)) for p in property_files]
    cats += [sources.read_entity_jsonl(Path(p)) for p in entity_files]
    cats += list(catalogues)
    if properties_dir is not False:
        cats.append(
            sources.read_wikidata_properties(
                _default("wikidata-properties")
                if properties_dir is None or properties_dir is True
                else Path(properties_dir)
            )
        )
    if arnold_dir is not False:
        cats.append(
            sources.read_kgtk_entities(
                _default("wikidata-subgraph-arnold") if arnold_dir is None or arnold_dir is True else Path(arnold_dir)
            )
        )
    if rebel_path is not None and rebel_path is not False:
        cats.append(
            sources.read_rebel_entities(
                _default("rebel-sample") / "sample.jsonl.gz" if rebel_path is True else Path(rebel_path)
            )
        )
    if not cats:
        raise UserError("build_kb needs at least one source")
    merged = merge(cats)
    labels = {rid: r.label for rid, r in merged.entities.items()}
    properties = _finish_properties(merged, labels)
    return write_kb(
        out_dir,
        properties=properties,
        entities=merged.entities,
        support={},
        subclass_of=merged.subclass_of,
        sources_info=[c.source for c in cats],
        embedder=embedder,
        overwrite=overwrite,
    )


def build_rebel_kb(
    out_dir: Path | str,
    *,
    properties_dir: Path | str | None = None,
    arnold_dir: Path | str | None = None,
    rebel_path: Path | str | None = None,
    embedder: str = "minilm",
    overwrite: bool = True,
) -> Path:
    """Closed-world KB for the REBEL benchmark: the property catalogue plus exactly the REBEL entities.

    Arnold only enriches (label, aliases, description, P31) entities that REBEL already has; the
    classes those types reach through P279 are stored as non-searchable support records, so
    ``label()``/``superclasses()`` work without adding search distractors.
    """
    props = sources.read_wikidata_properties(
        Path(properties_dir) if properties_dir else _default("wikidata-properties")
    )
    rebel = sources.read_rebel_entities(
        Path(rebel_path) if rebel_path else _default("rebel-sample") / "sample.jsonl.gz"
    )
    arnold = sources.read_kgtk_entities(Path(arnold_dir) if arnold_dir else _default("wikidata-subgraph-arnold"))
    entities = {
        qid: _merge_record(arnold.entities[qid], rec) if qid in arnold.entities else rec
        for qid, rec in rebel.entities.items()
    }
    classes = _ancestors((t for r in entities.values() for t in r.types), arnold.subclass_of)
    subclass_of: dict[str, set[str]] = defaultdict(set)
    for c in classes:
        if arnold.subclass_of.get(c):
            subclass_of[c] = set(arnold.subclass_of[c])
    support = {c: arnold.entities[c] for c in classes if c in arnold.entities}
    labels = {rid: r.label for rid, r in arnold.entities.items()} | {rid: r.label for rid, r in entities.items()}
    properties = _finish_properties(merge([props, Catalogue(properties=arnold.properties)]), labels)
    return write_kb(
        out_dir,
        properties=properties,
        entities=entities,
        support=support,
        subclass_of=subclass_of,
        sources_info=[props.source, rebel.source, {**arnold.source, "role": "enrichment"}],
        embedder=embedder,
        overwrite=overwrite,
    )
