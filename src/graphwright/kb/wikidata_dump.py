"""Import a Wikidata JSON dump (``latest-all.json.gz``) into a local KB, resumably.

The dump is one JSON array with one entity per line: ``[``, entity lines ending in ``,``, ``]``; gzip,
bzip2 or plain (one entity per line without the brackets is read too). It is streamed once: each item
and property becomes a line of the generic entity / property JSONL of :mod:`graphwright.kb.sources`
in a work folder beside the KB (``.<name>.wikidata-import/``), and :func:`graphwright.kb.build.build_kb`
indexes those files, so the dump adds no index logic of its own.

Kept per item: the English label (else the ``mul`` label), English aliases and description, P31,
P279 and the number of sitelinks; items without such a label are skipped. Per property: the same
texts, datatype, P1647, P1855 subjects, and the classes (P2308) of its subject type (Q21503250) and
value-type (Q21510865) constraints. Lexemes and other entity types are skipped.

Resume: after every batch, ``state.json`` records how far the dump was read (bytes and lines of the
decompressed text) and how long each JSONL file was then; a rerun cuts what was written after that
and carries on from there. Compressed dumps cannot seek, so a resume decompresses the part already
read again, without parsing it.
"""

from __future__ import annotations

import bz2
import gzip
import json
import os
import shutil
import signal
import zlib
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphwright.errors import UserError
from graphwright.kb import sources
from graphwright.kb.build import MANIFEST, build_kb
from graphwright.kb.namespaces import is_wikidata_id

_loads: Callable[[bytes | str], Any]
try:  # several times faster on the dump's long lines; installed with langgraph, but optional
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    from json import loads as _loads

STATE_VERSION = 1
SUBJECT_TYPE, VALUE_TYPE = "Q21503250", "Q21510865"
BATCH_LINES = 10_000  # dump lines between two saves of the resume state
PROGRESS_LINES = 1_000
MAX_WARNINGS = 10  # malformed lines reported one by one; the rest are only counted
FILES = ("entities", "properties", "classes")  # classes: filtered-out items with P279, kept if referenced


@dataclass(frozen=True)
class Filters:
    min_sitelinks: int = 0
    # Classes an item's direct P31 must include (empty = any). Direct only: a dump lists instances
    # before it has read their classes, so "subclass of" cannot be known in one pass.
    keep_types: tuple[str, ...] = ()

    def active(self) -> bool:
        return self.min_sitelinks > 0 or bool(self.keep_types)


@dataclass
class ImportStats:
    lines: int = 0  # dump lines consumed
    offset: int = 0  # decompressed bytes consumed (end of line ``lines``)
    entities_read: int = 0
    items_kept: int = 0
    properties_kept: int = 0
    classes_kept: int = 0  # filtered-out classes kept because kept records reference them
    filtered: int = 0
    unlabelled: int = 0
    other_types: int = 0  # lexemes, media info, entity schemas
    malformed: int = 0
    resumed_at_line: int = 0
    bytes_read: int = 0  # of the file as stored (compressed), for progress
    bytes_total: int = 0
    layout: str = ""  # "array" (the official "[" ... "]") or "lines" (one entity per line, no brackets)
    closed: bool = False  # the closing "]" was read

    @property
    def kept(self) -> int:
        return self.items_kept + self.properties_kept


@dataclass
class DumpImport:
    path: Path
    stats: ImportStats
    existed: bool = False  # the KB was already there and nothing was read


# ---- entity JSON -> generic records ------------------------------------------------------------


def _text(entity: dict, key: str, langs: Iterable[str] = ("en",)) -> str:
    values = entity.get(key) or {}
    for lang in langs:
        value = (values.get(lang) or {}).get("value")
        if value:
            return value
    return ""


def _value_id(snak: dict) -> str | None:
    if snak.get("snaktype") != "value":
        return None  # "somevalue" / "novalue" name no entity
    value = (snak.get("datavalue") or {}).get("value")
    if not isinstance(value, dict):
        return None
    rid = value.get("id")
    if rid is None and "numeric-id" in value:  # dumps before 2015 had only the number
        rid = {"item": "Q", "property": "P"}.get(value.get("entity-type", ""), "?") + str(value["numeric-id"])
    return rid if isinstance(rid, str) and is_wikidata_id(rid) else None


def _statements(entity: dict, pid: str) -> list[dict]:
    return [s for s in (entity.get("claims") or {}).get(pid, []) if s.get("rank") != "deprecated"]


def _values(entity: dict, pid: str) -> list[str]:
    return sources.ordered_unique(_value_id(s.get("mainsnak") or {}) for s in _statements(entity, pid))


def _names(entity: dict) -> dict:
    label = _text(entity, "labels", ("en", "mul"))
    aliases = [a.get("value") for a in (entity.get("aliases") or {}).get("en", [])]
    return {
        "id": entity["id"],
        "label": label,
        "aliases": sources.ordered_unique(aliases, exclude=label),
        "description": _text(entity, "descriptions"),
    }


def item_line(entity: dict) -> dict:
    """An item as a line of the generic entity JSONL."""
    return {
        **_names(entity),
        "types": _values(entity, "P31"),
        "subclass_of": _values(entity, "P279"),
        "sitelinks": len(entity.get("sitelinks") or {}),
    }


def property_line(entity: dict) -> dict:
    """A property as a line of the generic property JSONL, with its type constraints' classes."""
    types: dict[str, list[str]] = {}  # constraint item -> its P2308 classes
    for st in _statements(entity, "P2302"):
        kind = _value_id(st.get("mainsnak") or {})
        if kind in (SUBJECT_TYPE, VALUE_TYPE):
            classes = [_value_id(q) for q in (st.get("qualifiers") or {}).get("P2308", [])]
            types.setdefault(kind, []).extend(c for c in classes if c)
    return {
        **_names(entity),
        "datatype": entity.get("datatype"),
        "super_properties": _values(entity, "P1647"),
        "subject_types": sources.ordered_unique(types.get(SUBJECT_TYPE, [])),
        "value_types": sources.ordered_unique(types.get(VALUE_TYPE, [])),
        # declared without any class: known to exist, not checkable (as with the KGTK dump)
        "unchecked_constraints": [sources.TYPE_CONSTRAINTS[k] for k, v in sorted(types.items()) if not v],
        # P1855's subject only: build_kb labels it from the KB's entities
        "example_subjects": [[q, None] for q in _values(entity, "P1855") if q.startswith("Q")],
    }


def classify(entity: dict, filters: Filters) -> tuple[str | None, dict | None]:
    """(where the entity goes, its JSONL line): "entities", "properties", "classes" (filtered out, but
    kept later if a kept record names it), "filtered" (no line), or None (unlabelled or not an item)."""
    kind, eid = entity.get("type"), str(entity.get("id", ""))
    if kind == "property" and eid.startswith("P") and is_wikidata_id(eid):
        line = property_line(entity)
        return ("properties", line) if line["label"] else (None, None)
    if kind != "item" or not (eid.startswith("Q") and is_wikidata_id(eid)):
        return None, None
    line = item_line(entity)
    if not line["label"]:
        return None, None
    passes = line["sitelinks"] >= filters.min_sitelinks and (
        not filters.keep_types or any(t in filters.keep_types for t in line["types"])
    )
    if passes:
        return "entities", line
    return ("classes", line) if line["subclass_of"] else ("filtered", None)


# ---- the work folder ---------------------------------------------------------------------------


def work_dir(out_dir: Path | str) -> Path:
    out = Path(out_dir)
    return out.parent / f".{out.name}.wikidata-import"


def _dump_identity(dump: Path) -> dict:
    st = dump.stat()
    return {"path": str(dump.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _load_state(work: Path, identity: dict, filters: Filters, warn: Callable[[str], None]) -> dict | None:
    """The saved state if it belongs to this dump and these filters and its files are intact."""
    try:
        state = json.loads((work / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (state.get("version"), state.get("dump"), state.get("filters")) != (
        STATE_VERSION,
        identity,
        _filters_json(filters),
    ):
        warn(f"{work} holds an unfinished import of another dump or with other filters; starting again")
        return None
    for name, size in state["sizes"].items():
        path = work / f"{name}.jsonl"
        if not path.is_file() or path.stat().st_size < size:
            warn(f"{path} is shorter than recorded; starting the import again")
            return None
        with open(path, "r+b") as fh:
            fh.truncate(size)  # lines written after the last saved state are read again
    return state


def _filters_json(filters: Filters) -> dict:
    return {"min_sitelinks": filters.min_sitelinks, "keep_types": list(filters.keep_types)}


def _save_state(work: Path, state: dict) -> None:
    tmp = work / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1), encoding="utf-8")
    os.replace(tmp, work / "state.json")  # atomic: a kill leaves the old or the new state


# ---- streaming ---------------------------------------------------------------------------------


def _open(dump: Path):
    """(raw file, decompressed binary stream, compression name), by magic bytes rather than suffix."""
    raw = open(dump, "rb")
    magic = raw.read(3)
    raw.seek(0)
    if magic[:2] == b"\x1f\x8b":
        return raw, gzip.GzipFile(fileobj=raw, mode="rb"), "gzip"
    if magic == b"BZh":
        return raw, bz2.BZ2File(raw), "bzip2"
    return raw, raw, "plain"


def _dumps(obj: dict) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


@contextmanager
def _ctrl_c_between_lines():
    """Ctrl-C only sets a flag that the loop checks after each line, so the saved position and the
    records written always agree (an interrupt inside a line would read it twice on resume)."""
    interrupted: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, _frame: interrupted.append(signum))
    except ValueError:  # not the main thread: Ctrl-C never reaches this code
        previous = None
    try:
        yield interrupted
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


class _Reader:
    """One pass over the dump from the saved position, writing JSONL in batches."""

    def __init__(self, dump: Path, work: Path, filters: Filters, state: dict, warn: Callable[[str], None]):
        self.dump, self.work, self.filters, self.state, self.warn = dump, work, filters, state, warn
        self.stats = ImportStats(**state["stats"])
        self.stats.resumed_at_line = self.stats.lines
        self.stats.bytes_total = state["dump"]["size"]
        self.outputs = {n: open(work / f"{n}.jsonl", "ab") for n in FILES}
        self.pending: dict[str, list[bytes]] = {n: [] for n in FILES}
        self.saving = False

    def save(self) -> None:
        self.saving = True  # a failure while saving must not be followed by another save
        for name, fh in self.outputs.items():
            fh.write(b"".join(self.pending[name]))
            fh.flush()
            self.pending[name].clear()
        self.state.update(stats=asdict(self.stats), sizes={n: fh.tell() for n, fh in self.outputs.items()})
        _save_state(self.work, self.state)
        self.saving = False

    def close(self) -> None:
        for fh in self.outputs.values():
            fh.close()

    def run(self, batch_lines: int, progress_every: int, on_progress) -> None:
        stats = self.stats
        raw, stream, compression = _open(self.dump)
        try:
            if stats.offset:
                self._seek(stream, compression)
            with _ctrl_c_between_lines() as interrupted:
                lines = iter(stream.readline, b"")
                while True:
                    try:
                        line = next(lines)
                    except StopIteration:
                        break
                    except (EOFError, OSError, zlib.error) as exc:
                        raise UserError(
                            f"{self.dump}: the {compression} data breaks off after line {stats.lines} "
                            f"({exc}): the file is truncated or damaged; download it again"
                        ) from None
                    self._line(line, stats.lines + 1)
                    stats.offset += len(line)
                    stats.lines += 1
                    if interrupted:
                        raise KeyboardInterrupt
                    if stats.lines % batch_lines == 0 or (on_progress and stats.lines % progress_every == 0):
                        stats.bytes_read = raw.tell()
                        if stats.lines % batch_lines == 0:
                            self.save()
                        if on_progress and stats.lines % progress_every == 0:
                            on_progress(stats)
            stats.bytes_read = raw.tell()
            if on_progress:
                on_progress(stats)
        finally:
            stream.close()
            raw.close()

    def _seek(self, stream, compression: str) -> None:
        """Compressed streams cannot jump: ``seek`` decompresses its way there, without parsing."""
        try:
            stream.seek(self.stats.offset)
        except (EOFError, OSError, zlib.error) as exc:
            raise UserError(
                f"{self.dump}: cannot resume after line {self.stats.lines}: the {compression} data "
                f"ends or breaks before it ({exc})"
            ) from None

    def _line(self, line: bytes, line_no: int) -> None:
        body = line.strip().rstrip(b",")
        stats = self.stats
        if line_no == 1:
            if body != b"[" and not body.startswith(b"{"):
                raise UserError(
                    f"{self.dump}: line 1 starts with {body[:30]!r}: not a Wikidata JSON dump "
                    f"(expected '[' and then one entity per line)"
                )
            stats.layout = "array" if body == b"[" else "lines"
        if body == b"]":
            stats.closed = True
        if not body or body in (b"[", b"]"):
            return
        try:
            entity = _loads(body)
            if not isinstance(entity, dict) or "id" not in entity or "type" not in entity:
                raise ValueError("not an entity object with 'id' and 'type'")
        except ValueError as exc:
            stats.malformed += 1
            if stats.malformed <= MAX_WARNINGS:
                more = "; further malformed lines are only counted" if stats.malformed == MAX_WARNINGS else ""
                self.warn(f"{self.dump}:{line_no}: malformed line skipped ({str(exc)[:120]}){more}")
            return
        stats.entities_read += 1
        target, record = classify(entity, self.filters)
        if record is not None:
            assert target is not None  # classify gives a line only with where it goes
            self.pending[target].append(_dumps(record))
        if target == "entities":
            stats.items_kept += 1
        elif target == "properties":
            stats.properties_kept += 1
        elif target in ("classes", "filtered"):
            stats.filtered += 1
        elif entity.get("type") in ("item", "property"):
            stats.unlabelled += 1
        else:
            stats.other_types += 1


def _new_state(work: Path, identity: dict, filters: Filters) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in FILES:
        (work / f"{name}.jsonl").write_bytes(b"")
    return {
        "version": STATE_VERSION,
        "dump": identity,
        "filters": _filters_json(filters),
        "stats": asdict(ImportStats()),
        "sizes": {n: 0 for n in FILES},
        "complete": False,
    }


def stream_dump(
    dump: Path,
    work: Path,
    filters: Filters,
    *,
    batch_lines: int = BATCH_LINES,
    progress_every: int = PROGRESS_LINES,
    on_progress: Callable[[ImportStats], None] | None = None,
    warn: Callable[[str], None] = lambda _: None,
) -> ImportStats:
    """Read ``dump`` into the JSONL files of ``work``, resuming from a saved state."""
    identity = _dump_identity(dump)
    state = (_load_state(work, identity, filters, warn) if work.is_dir() else None) or _new_state(
        work, identity, filters
    )
    if state["complete"]:
        return ImportStats(**state["stats"])
    reader = _Reader(dump, work, filters, state, warn)
    stats = reader.stats
    try:
        try:
            reader.run(batch_lines, progress_every, on_progress)
        finally:
            if not reader.saving:
                reader.save()  # also on Ctrl-C or a broken file: every line parsed so far is kept
            reader.close()
        if stats.lines == 0:
            raise UserError(f"{dump} is empty: not a Wikidata JSON dump")
        if stats.entities_read == 0 and stats.malformed:
            raise UserError(
                f"{dump}: none of its {stats.malformed} entity lines could be read: not a Wikidata JSON dump"
            )
    except UserError:
        if stats.entities_read == 0:
            shutil.rmtree(work, ignore_errors=True)  # nothing worth resuming
        raise
    if stats.layout == "array" and not stats.closed:
        warn(f"{dump} ends without the closing ']' after line {stats.lines}: the dump may be truncated")
    state["complete"] = True
    _save_state(work, state)
    return stats


# ---- finishing -------------------------------------------------------------------------------


def _jsonl(path: Path):
    with open(path, "rb") as fh:
        for line in fh:
            yield _loads(line)


def keep_referenced_classes(work: Path) -> int:
    """Write ``classes-kept.jsonl``: the filtered-out classes that kept records name as P31/P279 or as
    constraint classes, with their superclasses, so type checks can climb the hierarchy."""
    kept, todo = set(), []
    for rec in _jsonl(work / "entities.jsonl"):
        kept.add(rec["id"])
        todo += rec["types"] + rec["subclass_of"]
    for rec in _jsonl(work / "properties.jsonl"):
        todo += rec["subject_types"] + rec["value_types"]
    parents = {rec["id"]: rec["subclass_of"] for rec in _jsonl(work / "classes.jsonl")}
    needed: set[str] = set()
    while todo:
        c = todo.pop()
        if c not in kept and c not in needed and c in parents:
            needed.add(c)
            todo += parents[c]
    with open(work / "classes-kept.jsonl", "wb") as out, open(work / "classes.jsonl", "rb") as fh:
        for line in fh:
            if _loads(line)["id"] in needed:
                out.write(line)
    return len(needed)


def read_import(work: Path, dump: Path, filters: Filters, stats: ImportStats) -> sources.Catalogue:
    """The import's JSONL files as one catalogue, credited to the dump in the KB manifest."""
    ents = sources.read_entity_jsonl(work / "entities.jsonl")
    classes = sources.read_entity_jsonl(work / "classes-kept.jsonl")
    props = sources.read_property_jsonl(work / "properties.jsonl")
    subclass_of = ents.subclass_of
    for child, parents in classes.subclass_of.items():
        subclass_of[child] |= parents
    info = {k: v for k, v in asdict(stats).items() if k not in ("offset", "bytes_read", "resumed_at_line", "closed")}
    return sources.Catalogue(
        properties=props.properties,
        entities=ents.entities | classes.entities,
        subclass_of=subclass_of,
        example_subjects=props.example_subjects,
        source={"kind": "wikidata-json-dump", "path": str(dump.resolve()), "filters": _filters_json(filters), **info},
    )


def build_from_dump(
    out_dir: Path | str,
    dump: Path | str,
    *,
    filters: Filters = Filters(),
    overwrite: bool = False,
    batch_lines: int = BATCH_LINES,
    progress_every: int = PROGRESS_LINES,
    on_progress: Callable[[ImportStats], None] | None = None,
    warn: Callable[[str], None] = lambda _: None,
    **build_kwargs,
) -> DumpImport:
    """Import ``dump`` into a KB at ``out_dir`` (resuming an interrupted import), then index it with
    :func:`build_kb`; ``build_kwargs`` add other sources (``entity_files``, ``ontology_files``, ...),
    which rank before the dump. An existing KB is kept unless ``overwrite``."""
    out, dump = Path(out_dir), Path(dump)
    if (out / MANIFEST).is_file() and not overwrite:
        return DumpImport(out, ImportStats(), existed=True)
    if not dump.is_file():
        raise UserError(f"Wikidata dump not found: {dump.resolve()}")
    if out.exists() and not (out / MANIFEST).is_file() and any(out.iterdir()):  # say so before hours of reading
        raise UserError(f"{out} exists and is not a graphwright KB directory; choose another output path")
    work = work_dir(out)
    stats = stream_dump(
        dump, work, filters, batch_lines=batch_lines, progress_every=progress_every, on_progress=on_progress, warn=warn
    )
    if filters.active():
        stats.classes_kept = keep_referenced_classes(work)
    else:
        (work / "classes-kept.jsonl").write_bytes(b"")
    catalogue = read_import(work, dump, filters, stats)
    build_kwargs = {"properties_dir": False, "arnold_dir": False, **build_kwargs}
    path = build_kb(out, catalogues=[catalogue], overwrite=True, **build_kwargs)
    shutil.rmtree(work, ignore_errors=True)
    return DumpImport(path, stats)
