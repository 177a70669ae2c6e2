"""Inline-XML tagged output back onto the input text (paper 002, section 4.3, done differently).

The tagger returns the sentence with ``<Type>...</Type>`` around entities, but small and large models
alike rewrite the text a little (punctuation, case, quotes, a dropped word). The thesis searched each
entity's tokens in the input and failed on repeated phrases. Here the tag-free output is aligned to
the input character by character (an order-preserving diff), so the n-th "Silicon Valley" of the
output lands on the n-th one of the input, and an entity keeps the input characters it was aligned to.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from typing import NamedTuple

_TAG = re.compile(r"<(/?)([A-Za-z_][\w.\-]*)\s*>")
LIST_COVERAGE = 0.5  # an output that reproduces less of the source is read as a list of mentions
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "`": "'", "´": "'", "–": "-", "—": "-"})


class TaggedSpan(NamedTuple):
    start: int  # character offsets in the tag-free output
    end: int
    type: str


class CharSpan(NamedTuple):
    start: int  # character offsets in the input
    end: int
    type: str


def parse_tagged(output: str, types: list[str]) -> tuple[str, list[TaggedSpan]]:
    """The tag-free text and the spans of the known entity tags (matched case-insensitively; nested
    tags give nested spans). Other tags are dropped from the text; an unclosed tag ends at the end."""
    canonical = {t.casefold(): t for t in types}
    plain: list[str] = []
    length = 0
    spans: list[TaggedSpan] = []
    stack: list[tuple[str, int]] = []
    last = 0
    for m in _TAG.finditer(output):
        piece = output[last : m.start()]
        plain.append(piece)
        length += len(piece)
        last = m.end()
        kind = canonical.get(m.group(2).casefold())
        if kind is None:
            continue
        if not m.group(1):
            stack.append((kind, length))
        else:
            for i in range(len(stack) - 1, -1, -1):  # close the innermost open tag of this type
                if stack[i][0] == kind:
                    spans.append(TaggedSpan(stack[i][1], length, kind))
                    del stack[i]
                    break
    tail = output[last:]
    plain.append(tail)
    length += len(tail)
    spans += [TaggedSpan(start, length, kind) for kind, start in stack]
    return "".join(plain), sorted(spans, key=lambda s: (s.start, -s.end))  # outer spans first


def _fold(text: str) -> str:
    """One character for each character: case, quotes, dashes and accents folded, so the alignment
    forgives such rewrites while offsets stay those of the original."""
    out = []
    for ch in text.translate(_QUOTES):
        low = ch.lower()
        if len(low) != 1:
            low = ch
        base = unicodedata.normalize("NFD", low)[0]
        out.append(base if base.isalnum() else low)
    return "".join(out)


def align(output: str, source: str, types: list[str]) -> list[CharSpan]:
    """Entity spans of a tagged ``output`` as character spans of ``source``. A span the output invented
    (no character of it matches the source) is dropped; leading and trailing spaces are trimmed. An
    output that lists mentions instead of copying the text is placed by ``mention_list``."""
    if coverage(output, source) < LIST_COVERAGE:
        return mention_list(output, source, types)
    plain, spans = parse_tagged(output, types)
    position = [-1] * len(plain)  # output char -> source char, where they match
    matcher = SequenceMatcher(None, _fold(plain), _fold(source), autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            position[block.a + k] = block.b + k
    out = []
    for span in spans:
        hits = [position[i] for i in range(span.start, span.end) if position[i] >= 0]
        if not hits:
            continue
        start, end = hits[0], hits[-1] + 1
        while start < end and source[start].isspace():
            start += 1
        while end > start and source[end - 1].isspace():
            end -= 1
        if start < end:
            out.append(CharSpan(start, end, span.type))
    return list(dict.fromkeys(out))


def mention_list(output: str, source: str, types: list[str]) -> list[CharSpan]:
    """The spans of an output that gives only tagged mentions (``<person>Bitar</person>``, or a fragment
    of the text) rather than the whole tagged text: each mention where the source writes it (case,
    quotes and accents aside), at its next occurrence after the previous mention, else at its first
    occurrence not yet taken; a mention the source lacks is dropped. The character diff of ``align``
    would spread a short list over unrelated characters of the source."""
    plain, spans = parse_tagged(output, types)
    folded = _fold(source)
    out: list[CharSpan] = []
    cursor = 0
    for span in spans:
        wanted = _fold(plain[span.start : span.end].strip())
        starts = [m.start() for m in re.finditer(re.escape(wanted), folded)] if wanted else []
        if not starts:
            continue
        taken = {s.start for s in out}
        at = next((i for i in starts if i >= cursor and i not in taken), None)
        at = next((i for i in starts if i not in taken), starts[0]) if at is None else at
        out.append(CharSpan(at, at + len(wanted), span.type))
        cursor = at + len(wanted)
    return list(dict.fromkeys(out))


def coverage(output: str, source: str) -> float:
    """How much of ``source`` the tag-free ``output`` reproduces: aligned characters over the longer of
    the two. A small model sometimes answers with other text (a researcher's answer, a refusal); such an
    <output> scores far below a lightly rewritten copy of the input."""
    plain, _ = parse_tagged(output, [])
    longest = max(len(plain), len(source))
    if not longest:
        return 1.0
    matcher = SequenceMatcher(None, _fold(plain), _fold(source), autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / longest
