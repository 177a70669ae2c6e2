"""Sentences and words: the one place text is cut, for every caller (evidence, chunking, the facts read in
passing, cue checks, KB and sample search, QA seeds, the paper systems and the benchmarks).

Sentences: a sentence ends at ``.``, ``!`` or ``?`` (with any closing quotes or brackets) before whitespace
and a capital letter (any script's: "Østlandet"), a digit or an opening quote, or at ``。``, ``！`` or ``？``; not after an abbreviation
that is seldom last (``Dr.``, ``St.``, ``Jan.``, ``i.e.``, ``Co.``, ``v.``, ``Fig.``) nor after an initial
(``J. R. R. Tolkien``). ``U.S.`` and ``U.K.`` end one only when a word that starts sentences follows
("moved to the U.S. In 2010 ..."). A block ends one too: a blank line, and a line that starts a list item
or a heading, since headings and items have no full stop. A single line break (a PDF's wrap) does not.
No sentence library fits: pysbd splits at every line break, blingfire does not know "Prof." or blank lines,
syntok merges list items and headings, and none has been kept up since 2022 (docs/decisions.md).

Words come in three cuts, each for one job (``marked_word_spans`` keeps a question's words with the marks
they end in, and ``tokens``, words and marks, counts a text's length):
- ``words``: runs of word characters (letters, digits, the underscore), as names are matched and texts counted;
- ``name_token_spans``: words with the marks inside a name kept ("U.S", "O'Brien", "co-founded", "2016-05-01"),
  for looking names up as they are written;
- ``search_terms``: lower-cased runs of letters, and of digits, apart ("Q42" is "q" and "42"), with Chinese
  cut into character pairs (it has no spaces): the terms of the BM25 and TF-IDF sample indices.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

Span = tuple[int, int]

# a full stop before whitespace and the first letter or digit of a word (a capital, checked in _ends: "Østlandet")
_END = re.compile(r"""[.!?]+["'”’)\]]*(?=\s+["'“‘(\[]?(\w))|[。！？]+""")
#: lower-cased words (dots inside kept) after which a full stop seldom ends the sentence
_NOT_AN_END = frozenset(
    "mr mrs ms dr prof st mt ft no nos vs v jr sr gen col capt lt sgt rev hon sen rep gov pres "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "co corp inc ltd bros dept univ assn est ca cf fig figs approx incl b d "
    "i.e e.g a.m p.m u.s u.k".split()
)
#: after these a full stop ends the sentence when a word that starts sentences follows
_END_BEFORE_A_STARTER = frozenset({"u.s", "u.k", "a.m", "p.m", "inc", "ltd", "corp", "co"})
_STARTERS = frozenset(
    "A An The In On At After Before During Since From By For With He She It They We I His Her Its Their "
    "This That These Those There Then But However Today Later Meanwhile".split()
)
_BLOCK_BREAK = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[-*•▪‣◦]|\d{1,3}[.)]|#{1,6})[ \t])")
_HEADING = re.compile(r"[ \t]*#{1,6}[ \t]")
_LAST_WORD = re.compile(r"[\w.]*$")
_NEXT_WORD = re.compile(r"\s+[\"'“‘(\[]?(\w+)")
_LOOK_BACK = 64  # characters read back for the word before a full stop: an abbreviation is shorter


def sentence_spans(text: str) -> list[Span]:
    """(start, end) of each sentence of ``text``, the whitespace around it left out. The texts split last
    are remembered: evidence, the facts read in passing and the linker's windows all ask for one text's
    sentences many times."""
    return list(_sentence_spans(text))


@lru_cache(maxsize=64)
def _sentence_spans(text: str) -> tuple[Span, ...]:
    spans: list[Span] = []
    for block_start, block_end in _blocks(text):
        start = block_start
        for end in _ends(text, block_start, block_end):
            spans.append((start, end))
            start = end
        spans.append((start, block_end))
    return tuple(_trimmed(text, a, b) for a, b in spans if text[a:b].strip())


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def sentence_at(text: str, start: int, end: int) -> Span:
    """The sentence holding ``text[start:end]``, or the run of sentences it crosses."""
    spans = _sentence_spans(text)
    first = next((s for s in spans if s[1] > start), None)
    last = next((s for s in reversed(spans) if s[0] < max(end, start + 1)), None)
    if first is None or last is None:
        return start, end
    return min(first[0], start), max(last[1], end)


def _blocks(text: str) -> Iterator[Span]:
    """Blank-line paragraphs, list items and headings; a markdown heading ends at its line's end."""
    at = 0
    for end in [m.start() for m in _BLOCK_BREAK.finditer(text)] + [len(text)]:
        line_end = text.find("\n", at, end)
        if line_end >= 0 and _HEADING.match(text, at, end):
            yield at, line_end
            at = line_end + 1
        yield at, end
        following = _BLOCK_BREAK.match(text, end)  # the break that ended this block
        at = following.end() if following else end


def _ends(text: str, start: int, end: int) -> Iterator[int]:
    for match in _END.finditer(text, start, end):
        if match.group()[0] in "。！？":
            yield match.end()
            continue
        if not (match.group(1).isupper() or match.group(1).isdigit()):
            continue
        before = _LAST_WORD.search(text, max(start, match.start() - _LOOK_BACK), match.start())
        word = before.group().lower() if before else ""
        if word in _END_BEFORE_A_STARTER:
            following = _NEXT_WORD.match(text, match.end(), end)
            if not (following and following.group(1) in _STARTERS):
                continue
        elif word in _NOT_AN_END or (len(word) == 1 and text[match.start() - 1].isupper()):
            continue
        yield match.end()


def _trimmed(text: str, a: int, b: int) -> Span:
    piece = text[a:b]
    return a + len(piece) - len(piece.lstrip()), a + len(piece.rstrip())


_WORD = re.compile(r"\w+")
_NAME_TOKEN = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*")
_TERM = re.compile(r"[^\W\d_]+|\d+")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_MARKED_WORD = re.compile(r"\w[\w'’.&-]*")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def occurrences(phrase: str, text: str) -> list[Span]:
    """Where the text writes the phrase as whole words (not "Ian" inside "Ianthe"), as written."""
    return [m.span() for m in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", text)]


def sentences_with(phrase: str, text: str) -> list[str]:
    """The sentence of each place the text writes the phrase, in order (one sentence twice if it writes it twice)."""
    return [text[slice(*sentence_at(text, start, end))] for start, end in occurrences(phrase, text)]


def opens_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` is the first of a sentence, a quotation, a bracket, a line or the text
    (capitalised there whatever it is)."""
    before = text[:at].rstrip(" \"'“‘(")
    return not before or before[-1] in ".!?:\n"


def words(text: str) -> list[str]:
    """Runs of word characters: letters, digits and the underscore."""
    return _WORD.findall(text)


def name_token_spans(text: str) -> list[Span]:
    """Words with the marks inside a name kept: "U.S" (of "U.S."), "O'Brien", "co-founded", "2016-05-01"."""
    return [m.span() for m in _NAME_TOKEN.finditer(text)]


def marked_word_spans(text: str) -> list[Span]:
    """Words with every mark a name carries, inside or at its end: "W.", "Mr.", "AT&T", "Brightwater's",
    "Shangri-La" (a question's words, which stay whole wherever they stand)."""
    return [m.span() for m in _MARKED_WORD.finditer(text)]


def tokens(text: str) -> list[str]:
    """Words and every other mark on its own, as a text's length in tokens is counted."""
    return _TOKEN.findall(text)


def has_cjk(text: str) -> bool:
    """True for text with Chinese characters, which has no spaces between words."""
    return bool(_CJK.search(text))


def search_terms(text: str) -> list[str]:
    """Lower-cased runs of letters and of digits; a run of Chinese characters becomes its character pairs
    (the character itself when it stands alone)."""
    out: list[str] = []
    for word in _TERM.findall(text.lower()):
        if _CJK.search(word):
            chars = [c for c in word if _CJK.match(c)]
            out += [a + b for a, b in zip(chars, chars[1:])] or chars
            out += [c for c in word if not _CJK.match(c)]
        else:
            out.append(word)
    return out
