"""AgentRE's memory (paper 001, section 3.3), kept in a folder so it outlives a run.

* shallow: extractions already checked against gold: right triples, wrong ones and missed ones;
* deep: one short summary per entity, rewritten by the LLM as right triples about it come in;
* reflection: one-sentence lessons the LLM drew from its mistakes.

Memory is written only while learning from labelled samples (warm-up); extraction only reads it,
so scores on a test split never see that split's gold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from graphwright.errors import UserError
from graphwright.jsonl import append_jsonl, read_jsonl
from graphwright.model.labelled import RETriple, normalize_argument
from graphwright.papers.agentre.pool import names_in, render_triples
from graphwright.retrieval import RetrieverKind, make_index

SHALLOW, DEEP, REFLECTIONS, MANIFEST = "shallow.jsonl", "deep.json", "reflections.jsonl", "manifest.json"


@dataclass
class Checked:
    """One sentence the agent extracted from, checked against its gold triples."""

    text: str
    correct: list[RETriple] = field(default_factory=list)
    wrong: list[RETriple] = field(default_factory=list)
    missed: list[RETriple] = field(default_factory=list)

    def render(self) -> str:
        parts = [f"Past sentence: {self.text}", f"right: {render_triples(self.correct)}"]
        if self.wrong:
            parts.append(f"wrong (do not repeat): {render_triples(self.wrong)}")
        if self.missed:
            parts.append(f"missed: {render_triples(self.missed)}")
        return "\n".join(parts)


class AgentMemory:
    def __init__(self, folder: Path | str, schema: str, retriever: RetrieverKind = "bm25"):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self._read_manifest(schema)
        self.schema = schema
        self.seen: set[str] = set(manifest.get("seen", []))
        self.checked = [
            Checked(r["text"], *[[RETriple(*t) for t in r[k]] for k in ("correct", "wrong", "missed")])
            for r in read_jsonl(self.folder / SHALLOW)
        ]
        self.summaries: dict[str, str] = _read_json(self.folder / DEEP)
        self.lessons: list[dict[str, str]] = read_jsonl(self.folder / REFLECTIONS)
        kind: RetrieverKind = "bm25" if retriever == "random" else retriever  # recall must be by similarity
        self._checked_index = make_index(kind, [c.text for c in self.checked])
        self._lesson_index = make_index(kind, [x["text"] for x in self.lessons])

    def _read_manifest(self, schema: str) -> dict:
        data = _read_json(self.folder / MANIFEST)
        if data and data.get("schema") != schema:
            raise UserError(
                f"memory folder {self.folder} belongs to schema {data.get('schema')!r}, not {schema!r}; "
                "choose another memory_dir"
            )
        return data

    # ---- recall -----------------------------------------------------------------------------------------

    def similar_checked(self, text: str, k: int) -> list[Checked]:
        return [self.checked[i] for i in self._checked_index.top(text, k)]

    def entity_summaries(self, text: str, k: int) -> list[tuple[str, str]]:
        """Summaries of entities the sentence names, longest names first (most specific)."""
        lowered = text.casefold()
        hits = [(e, s) for e, s in self.summaries.items() if names_in(e.casefold(), lowered)]
        return sorted(hits, key=lambda x: -len(x[0]))[:k]

    def similar_lessons(self, text: str, k: int) -> list[str]:
        return list(dict.fromkeys(self.lessons[i]["lesson"] for i in self._lesson_index.top(text, k)))

    def __len__(self) -> int:
        return len(self.checked) + len(self.summaries) + len(self.lessons)

    # ---- writing (learning from labelled samples) ---------------------------------------------------------

    def add_checked(self, checked: Checked) -> None:
        self.checked.append(checked)
        self._checked_index.add([checked.text])
        append_jsonl(
            self.folder / SHALLOW,
            {
                "text": checked.text,
                **{k: [list(t) for t in getattr(checked, k)] for k in ("correct", "wrong", "missed")},
            },
        )

    def set_summary(self, entity: str, summary: str) -> None:
        self.summaries[normalize_argument(entity)] = summary.strip()
        _write_json(self.folder / DEEP, self.summaries)

    def add_lesson(self, text: str, lesson: str) -> None:
        row = {"text": text, "lesson": lesson.strip()}
        self.lessons.append(row)
        self._lesson_index.add([text])
        append_jsonl(self.folder / REFLECTIONS, row)

    def mark_seen(self, sample_id: str) -> None:
        """Called once every update from the sample is written, so an interrupted warm-up redoes it."""
        self.seen.add(sample_id)
        _write_json(self.folder / MANIFEST, {"schema": self.schema, "seen": sorted(self.seen)})


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)  # atomic: an interruption leaves the old file, never half a file
