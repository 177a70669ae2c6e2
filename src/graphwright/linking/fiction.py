"""A fictional character is meant only by a text that speaks of a story (issue 61).

The KB holds characters that share a real person's name: a superhero John Hancock beside the signer it
lacks, a "fictional analogon" of Muhammad Ali beside the boxer it lacks. A text on the Declaration of
Independence or a title fight names no work, role or story; one about Bilbo Baggins or the Godfather's
Sonny Corleone does ("the novel", "played", "Tolkien").
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphwright.kb.records import KBRecord
from graphwright.linking.names import FUNCTION_WORDS, normalize

#: fictional character, fictional human, film, literary, comics and mythical character
FICTIONAL_CLASSES = frozenset({"Q95074", "Q15632617", "Q15773347", "Q3658341", "Q1114461", "Q4271324"})
_FICTIONAL = re.compile(r"\b(?:fictional|character)\b", re.I)
_STORY = re.compile(
    r"\b(?:characters?|fiction|fictional|novels?|films?|movies?|plays?|played|playing|portray\w*|stars?|"
    r"starred|starring|cast|roles?|stor(?:y|ies)|tales?|series|comics?|books?|sagas?|operas?|musicals?|"
    r"episodes?|heroes|hero|heroine|villains?|legends?|legendary|myths?|mytholog\w*|epic|poems?|romances?|"
    r"franchise|universe|sequel|trilogy|screen|stage|cartoon|animated|anime|manga|video game|superhero\w*)\b",
    re.I,
)
_GENERIC = frozenset({"fictional", "character", "characters", "human", "from", "appearing", "created", "universe"})


def is_fictional(record: KBRecord) -> bool:
    return bool(FICTIONAL_CLASSES & set(record.types) or _FICTIONAL.search(record.description or ""))


# the work a description places its character in: "from the 1983 film Trading Places", "in Disney's Aladdin
# franchise" (its owner, then its title); not "created by J. R. R. Tolkien" nor "in Tolkien's works"
_OWN_WORK = re.compile(
    r"\b(?:from|in)\s+(?:the\s+)?(?:\d{4}\s+)?(?:(?P<owner>[A-Z][\w.]*(?:\s+[A-Z][\w.]*)*)['’]s\s+)?"
    r"(?:[a-z][\w-]*\s+){0,3}?(?P<title>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)(?![\w.'’])"
)


def speaks_of_fiction(text: str, record: KBRecord) -> bool:
    """Whether the text names the work the character's description places it in, where it names one (Othello's
    Iago is not the parrot "in Disney's Aladdin franchise"), else a story, a role or the character's own work
    or maker (its description's words other than its name: "Tolkien", "Godfather")."""
    work = _OWN_WORK.search(record.description or "")
    if work:
        named = set(normalize(" ".join(filter(None, work.group("owner", "title")))).split()) - FUNCTION_WORDS
        return bool(named & _words(text))
    if _STORY.search(text):
        return True
    own = {w for w in normalize(record.description or "").split() if len(w) > 3 and w.isalpha()}
    own -= FUNCTION_WORDS | _GENERIC | set(normalize(record.label).split())  # not its own name
    return bool(own & _words(text))


@lru_cache(maxsize=16)  # one text, asked of each character candidate of each of its names
def _words(text: str) -> frozenset[str]:
    return frozenset(normalize(text).split())
