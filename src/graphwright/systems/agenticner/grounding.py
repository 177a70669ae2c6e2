"""The grounding engine (paper 002, section 4.4): a phrase -> types knowledge base, checked once
against the tagger's approved output. An entity the KB does not know, or whose type the KB lists,
passes; for the others a templated line suggests the KB's types. The tagger may keep its answer."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from graphwright.errors import DataNotFoundError, UserError
from graphwright.eval.ner_data import NERSample


def phrase_key(text: str) -> str:
    return " ".join(text.casefold().split())


class GroundingKB:
    def __init__(self, entries: dict[str, set[str]] | None = None):
        self.entries: dict[str, set[str]] = defaultdict(set)
        for phrase, types in (entries or {}).items():
            self.entries[phrase_key(phrase)] |= set(types)

    @classmethod
    def from_samples(cls, samples: list[NERSample]) -> "GroundingKB":
        kb = cls()
        for s in samples:
            for c in s.entities:
                kb.entries[phrase_key(s.separator.join(s.tokens[c.start:c.end]))].add(c.type)
        return kb

    @classmethod
    def from_file(cls, path: Path | str) -> "GroundingKB":
        """JSON Lines ``{"phrase": ..., "types": [...]}`` or TSV ``phrase<TAB>type[,type]``."""
        path = Path(path)
        if not path.is_file():
            raise DataNotFoundError(f"grounding KB {path} not found")
        kb = cls()
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if not line.strip():
                continue
            try:
                if path.suffix == ".jsonl":
                    row = json.loads(line)
                    phrase, types = row["phrase"], row["types"]
                else:
                    phrase, types = line.split("\t")
                    types = [t.strip() for t in types.split(",")]
            except (ValueError, KeyError, TypeError) as exc:
                raise UserError(f"{path}:{number}: expected {{\"phrase\": ..., \"types\": [...]}} or "
                                f"'phrase<TAB>type,type' ({exc})") from exc
            kb.entries[phrase_key(phrase)] |= {t for t in types if t}
        return kb

    def __len__(self) -> int:
        return len(self.entries)

    def feedback(self, entities: list[tuple[str, str]]) -> list[str]:
        """One line per (text, type) whose type the KB contradicts, in the thesis's template."""
        lines = []
        for text, kind in entities:
            known = self.entries.get(phrase_key(text))
            if known and kind not in known:
                lines.append(f"- '{text}' is tagged as '{kind}'. It should likely be {' or '.join(sorted(known))} instead.")
        return list(dict.fromkeys(lines))
