"""The grounding engine (paper 002, section 4.4): a phrase -> types knowledge base, checked once
against the tagger's approved output. An entity the KB does not know, or whose type the KB lists,
passes; for the others a templated line suggests the KB's types. The tagger may keep its answer.

For small models the KB can also act itself (issue 27): the 1.5B tagger kept 8 of the 9 types the
engine flagged on CrossNER-AI, and left untagged 104 of its 151 missed mentions, so ``retype`` puts
the KB's type on a mention it contradicts, and ``spot`` tags the phrases it knows that the tagger
left untagged."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path

from graphwright.errors import DataNotFoundError, UserError
from graphwright.model.labelled import NERSample


def phrase_key(text: str) -> str:
    return " ".join(text.casefold().split())


MAX_PHRASE_TOKENS = 8  # longer labelled phrases are not counted as untagged occurrences (they are rare)


class GroundingKB:
    def __init__(self, entries: dict[str, set[str]] | None = None):
        self.entries: dict[str, set[str]] = defaultdict(set)
        self.type_counts: dict[str, Counter] = defaultdict(Counter)  # phrase -> how often each type was labelled
        self.tagged_share: dict[str, float] = {}  # phrase -> labelled occurrences / all occurrences in the samples
        self._spottable_cache: dict[tuple[int, float], list[str]] = {}
        for phrase, types in (entries or {}).items():
            self.entries[phrase_key(phrase)] |= set(types)

    @classmethod
    def from_samples(cls, samples: list[NERSample]) -> GroundingKB:
        kb = cls()
        occurrences: Counter = Counter()
        for s in samples:
            words = [t.casefold() for t in s.tokens]
            chunk: list[tuple[int, int] | None] = [None] * len(words)  # token -> the labelled mention it is in
            for c in s.entities:
                chunk[c.start : c.end] = [(c.start, c.end)] * (c.end - c.start)
            for n in range(1, MAX_PHRASE_TOKENS + 1):
                # a phrase inside a longer mention ("Intelligence" in "Journal of Artificial Intelligence") was not
                # left untagged: only occurrences clear of mentions, or a mention exactly, count
                occurrences.update(
                    " ".join(words[i : i + n])
                    for i in range(len(words) - n + 1)
                    if all(chunk[j] is None for j in range(i, i + n)) or chunk[i] == (i, i + n) == chunk[i + n - 1]
                )
            for c in s.entities:
                key = phrase_key(s.separator.join(s.tokens[c.start : c.end]))
                kb.entries[key].add(c.type)
                kb.type_counts[key][c.type] += 1
        for key, counts in kb.type_counts.items():
            kb.tagged_share[key] = min(1.0, sum(counts.values()) / max(occurrences.get(key, 0), 1))
        return kb

    @classmethod
    def from_file(cls, path: Path | str) -> GroundingKB:
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
                raise UserError(
                    f'{path}:{number}: expected {{"phrase": ..., "types": [...]}} or \'phrase<TAB>type,type\' ({exc})'
                ) from exc
            kb.entries[phrase_key(phrase)] |= {t for t in types if t}
        return kb

    def __len__(self) -> int:
        return len(self.entries)

    def type_of(self, text: str) -> str | None:
        """The type the KB gives a phrase: its only one, or the most often labelled (None: unknown)."""
        key = phrase_key(text)
        if key not in self.entries:
            return None
        return self._type_of_key(key)

    def _type_of_key(self, key: str) -> str:
        """``type_of`` a phrase key the KB has."""
        counts = self.type_counts.get(key)
        return counts.most_common(1)[0][0] if counts else sorted(self.entries[key])[0]

    def retype(self, spans: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
        """Each mention with the KB's type where the KB knows the phrase and does not list the tagged type."""
        out = []
        for start, end, kind in spans:
            key = phrase_key(text[start:end])
            known = self.entries.get(key)
            out.append((start, end, self._type_of_key(key) if known and kind not in known else kind))
        return out

    def spot(
        self, spans: list[tuple[int, int, str]], text: str, *, min_chars: int = 4, min_tagged_share: float = 0.5
    ) -> list[tuple[int, int, str]]:
        """Untagged whole-word occurrences of the KB's phrases, longest first, that overlap no mention, with
        the KB's type. Phrases shorter than ``min_chars``, and phrases the labelled samples tag in no more
        than ``min_tagged_share`` of their occurrences ("network", "speech"), are not spotted."""
        taken = [(s, e) for s, e, _ in spans]
        found = []
        lowered = text.casefold()
        for key in self._spottable(min_chars, min_tagged_share):
            if key.split()[0] not in lowered:
                continue  # most phrases are not in the text: a substring test spares their regex
            for m in _whole_word(key).finditer(lowered):
                if not any(m.start() < e and s < m.end() for s, e in taken):
                    taken.append((m.start(), m.end()))
                    found.append((m.start(), m.end(), self._type_of_key(key)))  # key is one of the KB's phrases
        return sorted(found)

    def _spottable(self, min_chars: int, min_tagged_share: float) -> list[str]:
        """The phrases spot looks for, longest first (computed once per thresholds)."""
        key = (min_chars, min_tagged_share)
        if key not in self._spottable_cache:
            self._spottable_cache[key] = sorted(
                (k for k in self.entries if len(k) >= min_chars and self.tagged_share.get(k, 1.0) > min_tagged_share),
                key=len,
                reverse=True,
            )
        return self._spottable_cache[key]

    def feedback(self, entities: list[tuple[str, str]]) -> list[str]:
        """One line per (text, type) whose type the KB contradicts, in the thesis's template."""
        lines = []
        for text, kind in entities:
            known = self.entries.get(phrase_key(text))
            if known and kind not in known:
                lines.append(
                    f"- '{text}' is tagged as '{kind}'. It should likely be {' or '.join(sorted(known))} instead."
                )
        return list(dict.fromkeys(lines))


@lru_cache(maxsize=100_000)
def _whole_word(phrase: str) -> re.Pattern:
    # spaces in a phrase match any run of spaces, as tokenized texts write them
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in phrase.split()) + r"(?!\w)")
