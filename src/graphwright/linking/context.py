"""Which of several same-name KB entities the document means, or none of them (issue 61).

A KB entity's description says what and where it is ("1940 film by Robert Z. Leonard", "political party in
Malta", "town in Lincolnshire, England"). The document says it too, around the mention. A candidate the
document contradicts is out (``Context.fit``):

- a place written with a place it does not lie in ("London, Ontario"; "Paris, a small city in Texas"), or
  something else where the text writes a place ("the town of Oxford");
- a code or region written after a place that the place does not lie in ("Denver, CO" is not Colombia);
- a work of another year ("Dune (2021)" is not the 1984 film) or another kind ("the novel Jurassic Park"
  is not the film), and a work where an apposition names a person ("Macbeth, the Scottish general");
- a title written with its article ("The Hobbit") against a name without it ("Hobbit", the race), and
  a proper name ("the Green Party") against a common noun ("Green party", a type of party);
- a party, chamber or ministry of none of the countries the text names (a party "in Chile" in a text about
  Sydney);
- a person born, a work made or a body founded after every year the mention's sentences write ("John
  Hancock signed the Declaration in 1776": not the actor born in 1941), or a state ended before them;
- a fictional character in a text that tells no story (the superhero John Hancock for the signer);
- anything but a unit, time zone or currency for a short word after a number ("98 kg", "9:40 AM");
- a country or a place for a side of a match ("Germany beat Argentina 1-0 in the final": the team).

Among the rest (``Context.choose``), the one the document agrees with most is taken: same year, kind or
place written with the name; then the entity labelled as the text writes the name; then the countries, the
words of its description around the mention and an acronym's letters it shares with the text; the system's
proposal on a tie. When every candidate is contradicted, the KB lacks the one meant and the name is minted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphwright.kb.records import KBRecord
from graphwright.linking.eras import out_of_time, text_years
from graphwright.linking.fiction import is_fictional, speaks_of_fiction
from graphwright.linking.geography import Geography, is_country, names_place
from graphwright.linking.measures import after_number, is_measure
from graphwright.linking.names import DEMONYMS, FUNCTION_WORDS, fold, normalize
from graphwright.linking.neighbours import Neighbours
from graphwright.linking.occupations import HUMAN, career_fit, later_careers, written_career
from graphwright.linking.teams import cannot_play, plays_as_team
from graphwright.text import occurrences, opens_sentence, sentence_at, sentences_with

#: kinds of work a description and a text name; the first one a description names is the entity's kind
WORK_KINDS = (
    "film",
    "novel",
    "play",
    "book",
    "character",
    "series",
    "album",
    "song",
    "opera",
    "painting",
    "poem",
    "musical",
    "sculpture",
    "video game",
    "television series",
    "short story",
)
PLACE_KINDS = ("city", "town", "village", "county", "state", "province", "region", "island", "port", "district")
REGION_KINDS = r"(?:\w+\s+){0,2}(?:state|province|territory|region|county|canton|prefecture)\b"
NATIONAL_CLASSES = frozenset({"Q7278", "Q375928", "Q637846", "Q11204", "Q8142"})  # party, lower and upper house,
# legislature, currency
NATIONAL_BODIES = re.compile(r"\b(?:political party|lower house|upper house|parliament|legislature|ministry)\b", re.I)
WORKS = frozenset(WORK_KINDS) - {"character"}  # a character is no work; an apposition may call it anything
WINDOW = 8  # words each side of a mention read for its description's words
_YEAR = r"(1[0-9]{3}|20[0-9]{2})"
_MAKERS = (
    r"(?:director|producer|maker|editor|critic|actor|actress|studio|company|distributor|festival|award|"
    r"composer|writer|historian|scholar|publisher|label|singer|group|band|designer|developer|character|star|"
    r"icon|executive|school|industry)"
)


@dataclass(frozen=True)
class Fit:
    """What the document says of one candidate: why it cannot be the one meant, or how much agrees."""

    contradiction: str | None
    agreement: tuple[int, bool, int] = (0, False, 0)  # (year, kind or place written with it; its label is the name
    # as written; country, words of the description and an acronym's letters shared with the text)


@dataclass(frozen=True)
class Choice:
    """The candidate a mention links to, the others the text leaves possible (best first), why the rest are
    out, and whether the text settles it (see linking/check.py for the ones it does not)."""

    best: KBRecord | None
    others: list[KBRecord]
    contradicted: list[str]
    settled: bool


class Context:
    """Reads one document against the candidates of its mentions."""

    def __init__(self, kb, text: str, geography: Geography | None = None):
        self.kb, self.text = kb, text
        self.geography = geography or Geography(kb)
        self._countries: dict[tuple[str, str], frozenset[str]] = {}  # the text's countries without a mention and
        # its candidate's names
        self.neighbours = Neighbours(kb, self.geography, text)
        self._years: dict[str, list[int]] = {}  # the years of each mention's sentences
        self._after_number: dict[str, bool] = {}  # whether a number comes before each short mention
        self._plays: dict[str, bool] = {}  # whether each mention is a side of a match

    def _text_countries(self, surface: str, record: KBRecord) -> frozenset[str]:
        """The countries the text places itself in, by every name but the mention and the candidate's own
        (the text's "Whig leader" would place it in the United States' Whig Party's country)."""
        key = (surface, record.id)
        if key not in self._countries:
            names = [surface, record.label, *record.aliases]
            self._countries[key] = self.geography.of_text(self.text, leave_out=names)
        return self._countries[key]

    def fit(self, surface: str, record: KBRecord, matched_name: str) -> Fit:
        strong = 0
        for check in (
            self._place,
            self._qualifying,
            self._work,
            self._career,
            self._era,
            self._fiction,
            self._measure,
            self._team,
        ):
            why, agrees = check(surface, record)
            if why:
                return Fit(why)
            strong += agrees
        if title_with_article(surface, self.text) and not fold(matched_name).startswith("the "):
            return Fit(f"the text's title {surface!r} has its article, {record.id}'s name {matched_name!r} not")
        if proper_against_common(surface, matched_name, self.text):
            return Fit(f"{surface!r} is a proper name, {record.id}'s {matched_name!r} a common noun")
        named, near = self.neighbours.support(surface, record)
        strong += named  # "Havana ... the seat of Mason County": Mason County, Illinois is in its description
        countries, ours = self.geography.of_record(record), self._text_countries(surface, record)
        national = self._national(record)
        if (
            national
            and ours
            and not countries & ours
            and (self.geography.named(self.text) or self._shared_name(surface))
        ):
            return Fit(f"{record.id} is a national body of none of the countries the text names")
        if national and countries & ours:
            strong += 1  # the peso of the Philippines in a text set in Manila, not the name of several currencies
        # the entity whose label the text writes, as written ("Theodore Roosevelt", not Theodore Roosevelt Sr.;
        # "coach", not the sitcom "Coach"), before namesakes that have the name as an alias or in another case
        labelled = record.label == surface or (record.label[:1].upper() + record.label[1:]) == surface
        shared = (
            len(countries & ours)
            + description_words(record, surface, self.text)
            + is_acronym_of(surface, record.label)
            + near
        )
        return Fit(None, (strong, labelled, shared))

    def choose(self, surface: str, proposed: KBRecord | None, linked: list[tuple[KBRecord, float, str]]) -> Choice:
        """The candidate the document means among those the judge accepts (record, confidence, matched
        name), the others still possible, and why the rest are out; no best: every one is contradicted,
        or there were none."""
        fits = {record.id: self.fit(surface, record, name) for record, _, name in linked}
        reasons = [
            f"{record.id}: {fits[record.id].contradiction}" for record, _, _ in linked if fits[record.id].contradiction
        ]
        kept = [(record, confidence) for record, confidence, _ in linked if not fits[record.id].contradiction]
        if not kept:
            return Choice(None, [], reasons, settled=False)
        chosen = next((r for r, _ in kept if proposed is not None and r.id == proposed.id), None)
        ranked = sorted(
            kept, key=lambda rc: (fits[rc[0].id].agreement, rc[0] is chosen, rc[1], _popularity(rc[0])), reverse=True
        )
        if (
            chosen is not None
            and is_country(chosen)
            and (
                fits[chosen.id].agreement[1] or all(fits[chosen.id].agreement >= fits[r.id].agreement for r, _ in kept)
            )
        ):
            ranked = [(chosen, 0.0), *[rc for rc in ranked if rc[0] is not chosen]]  # "Luxembourg" is the
            # country before its capital, "China" the state
        best = ranked[0][0]
        # the text itself places, dates or kinds it: no reader needed
        settled = fits[best.id].agreement[0] > 0
        return Choice(best, [r for r, _ in ranked[1:]], reasons, settled)

    def _place(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """The place a name is written with ("London, Ontario"; "Lebanon, a small city in Pennsylvania"), and
        whether the text writes it as a place at all ("the town of Oxford")."""
        geo = self.geography
        places = geo.qualifier(surface, self.text)
        if self._written_as_place(surface, places) and not geo.is_place(record):
            return f"the text writes {surface} as a place, {record.id} is none", 0
        if not places or not geo.is_place(record):
            return None, 0
        if any(geo.lies_in(record, p) for p in places):
            return None, 1
        return f"the text places it in {', '.join(sorted(places))}", 0

    def _qualifying(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A name written as where another place lies ("Denver, CO"; "Melbourne, the capital of Victoria"):
        the entity the KB's places of that name are in, not a namesake elsewhere ("CO" is not Colombia)."""
        qualified = self.geography.qualified(surface, self.text)
        if qualified is None:
            return None, 0
        if not self.geography.is_place(record):
            return f"the text writes {surface} as where a place lies, {record.id} is no place", 0
        if len(surface) == 2 and surface.isupper() and is_country(record):
            return f"{surface} after a place is a state's or province's code, {record.id} is a country", 0
        if not any(qualified):  # a place the KB lacks: a region, not a city, is what a code after it names
            return None, int(bool(re.match(REGION_KINDS, record.description)))
        support = self._qualifies(record, qualified)
        if support or not any(
            self._qualifies(r, qualified)
            for r in self.kb.find_label(surface, kind="entity")
            if self.geography.is_place(r)
        ):
            return None, support  # none fits: the place it qualifies is a namesake the KB lacks ("Dublin, Georgia")
        return f"{surface} qualifies a place that {record.id} does not hold", 0

    def _qualifies(self, record: KBRecord, qualified: list[list[KBRecord]]) -> int:
        """2: the qualified place's description names the entity, in a country they share ("Melbourne, the
        capital of Victoria": the state, not the Seychelles' capital); 1: they share a country; 0: neither."""
        countries = self.geography.of_record(record)
        shared = {c for records in qualified for r in records for c in self.geography.of_record(r)} & countries
        if (shared or not countries) and any(names_place(r, normalize(record.label)) for rs in qualified for r in rs):
            return 2
        return int(bool(shared))

    def _work(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A work's year and kind as the text writes them with its title, and what an apposition calls it."""
        described_kind = description_kind(record)
        year, described_year = written_year(surface, self.text), description_year(record)
        agrees = 0
        if year and described_year:
            if year != described_year:
                return f"the text's {surface} is of {year}, {record.id} of {described_year}", 0
            agrees += 1
        elif (
            year and re.search(rf"(?<!\w){re.escape(surface)}\s*\({year}\)", self.text) and described_kind not in WORKS
        ):
            return f"the text dates {surface} ({year}) as a work, {record.id} is none", 0
        if described_kind in WORKS and (noun := apposition_noun(surface, self.text)) and noun not in WORK_KINDS:
            return f"the text says {surface} is a {noun}, {record.id} is a work", 0
        kind = written_kind(surface, self.text)
        if kind and described_kind:
            if kind != described_kind:
                return f"the text's {surface} is a {kind}, {record.id} a {described_kind}", 0
            agrees += 1
        return None, agrees

    def _career(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A person's career as the text writes it with the name ("Tom Watson, the golfer") against the KB
        person's description (the politician Thomas E. Watson)."""
        if HUMAN not in record.types:
            return None, 0
        why, agrees = career_fit(
            written_career(surface, self.text), record.description, later_careers(surface, self.text)
        )
        return (f"{why} ({record.id})" if why else None), int(agrees)

    def _era(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A person born, a work made or a body founded after every year the sentences of the mention write,
        or a state or body ended before them (linking/eras.py)."""
        if surface not in self._years:
            self._years[surface] = [
                year for sentence in sentences_with(surface, self.text) for year in text_years(sentence)
            ]
        person, work = HUMAN in record.types, description_kind(record) in WORKS
        return out_of_time(self._years[surface], record, person=person, work=work), 0

    def _fiction(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A character in a text that names no story, role or work of it (linking/fiction.py)."""
        if is_fictional(record) and not speaks_of_fiction(self.text, record):
            return f"{record.id} is fictional and the text tells no story", 0
        return None, 0

    def _measure(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A short word after a number: a unit, time zone or currency, nothing else (linking/measures.py)."""
        if surface not in self._after_number:
            self._after_number[surface] = after_number(surface, self.text)
        if not self._after_number[surface]:
            return None, 0
        if is_measure(self.kb, record):
            return None, 1
        return f"{surface} follows a number, {record.id} is no unit, time zone or currency", 0

    def _team(self, surface: str, record: KBRecord) -> tuple[str | None, int]:
        """A side of a match in sport is no country, place or civilisation (linking/teams.py)."""
        if surface not in self._plays:
            self._plays[surface] = plays_as_team(surface, self.text)
        if self._plays[surface] and cannot_play(record):
            return f"the text's {surface} plays a match, {record.id} is no team", 0
        return None, 0

    def _written_as_place(self, surface: str, places: frozenset[str]) -> bool:
        """ "London, Ontario" (a place the KB has), "the town of Oxford", "Paris, a small city in Texas"."""
        if any(any(self.geography.is_place(r) for r in self.kb.find_label(p, kind="entity")) for p in places):
            return True
        name, kinds = re.escape(surface), "|".join(PLACE_KINDS)
        return bool(
            re.search(rf"\b(?:{kinds}) of {name}(?!\w)", self.text)
            or re.search(rf"(?<!\w){name},\s+(?:a|an|the)\s+(?:[\w'’-]+\s+){{0,3}}(?:{kinds})\b", self.text)
        )

    def _shared_name(self, surface: str) -> bool:
        """Whether the KB holds several national bodies of this name (the Social Democratic Parties of Romania
        and Estonia)."""
        return sum(self._national(r) for r in self.kb.find_label(surface, kind="entity")) > 1

    def _national(self, record: KBRecord) -> bool:
        """A party, a parliament's chamber, a ministry: its name ("Labour Party", "Chamber of Deputies") is
        shared by bodies in many countries, and a text that names countries (or places and people the KB
        places) means the one of such a country, where it names a country itself or the KB holds several
        bodies of the name; one the KB does not place is not one it can be shown to mean. A text that only
        names a town abroad is not judged ("born in Thal, she is a member of the Republican Party"), nor are
        people, firms and cities, which cross borders."""
        return bool(NATIONAL_BODIES.search(record.description)) or any(
            c in NATIONAL_CLASSES or NATIONAL_CLASSES & set(self.kb.superclasses(c, depth=3)) for c in record.types
        )


def is_acronym_of(surface: str, label: str) -> bool:
    """ "ESA" of "European Space Agency", "NATO" of "North Atlantic Treaty Organization" (small words may
    be left out or kept)."""
    if not (2 <= len(surface) <= 6 and surface.isupper() and surface.isalpha()):
        return False
    words = re.findall(r"[^\W\d_]+", label)
    initials = "".join(w[0] for w in words).upper()
    content = "".join(w[0] for w in words if w.casefold() not in FUNCTION_WORDS).upper()
    return surface in (initials, content) and len(words) > 1


def written_year(surface: str, text: str) -> str | None:
    """The year a text writes with a name: "Dune (2021)", "the 1990 novel Jurassic Park"."""
    name = re.escape(surface)
    match = re.search(rf"(?<!\w){name}\s*\({_YEAR}\)", text) or re.search(
        rf"\b{_YEAR}\s+(?:[a-z]+\s+){{1,2}}{name}(?!\w)", text
    )
    return match.group(1) if match else None


def description_year(record: KBRecord) -> str | None:
    """The year a work's description opens with: "1940 film by ..."."""
    match = re.match(_YEAR + r"\b", record.description)
    return match.group(1) if match else None


def written_kind(surface: str, text: str) -> str | None:
    """The kind of work a text names right with a title: "the novel Jurassic Park", "King's novel The
    Shining", "her first book, Emma", "Dune, the film"; None when it names none there."""
    name = re.escape(surface)
    kinds = "|".join(WORK_KINDS)
    match = re.search(rf"\b({kinds}),?\s+{name}(?!\w)", text) or re.search(
        rf"(?<!\w){name},\s+(?:a|an|the)\s+(?:[\w'’-]+\s+){{0,2}}({kinds})\b(?!\s+{_MAKERS})", text
    )
    return match.group(1) if match else None


def apposition_noun(surface: str, text: str) -> str | None:
    """The noun a text puts after a name to say what it is: "Macbeth, the Scottish general in ..." ->
    general; None without such an apposition."""
    match = re.search(
        rf"(?<!\w){re.escape(surface)},\s+(?:a|an|the)\s+((?:[\w'’-]+\s+){{0,3}}?[a-z][\w-]*)"
        rf"(?=[,.;]|\s+(?:who|which|that|in|of|from|at|on|with)\b)",
        text,
    )
    return match.group(1).split()[-1] if match else None


def description_kind(record: KBRecord) -> str | None:
    """The first kind of work the description names: "1993 American science fiction film" -> film; not one
    that qualifies a person or firm ("American film director", "record label")."""
    found = [
        (m.start(), kind)
        for kind in WORK_KINDS
        if (m := re.search(rf"\b{kind}\b(?!\s+{_MAKERS})", record.description.casefold()))
    ]
    return min(found)[1] if found else None


def title_with_article(surface: str, text: str) -> bool:
    """Whether the text writes the name with a capital "The" inside a sentence ("published The Hobbit"):
    the article is part of the title, not the grammar."""
    if not surface.startswith("The "):
        return False
    for at, _ in occurrences(surface, text):
        before = text[:at].rstrip()
        if before and before[-1] not in '.!?:"“(\n':
            return True
    return False


def proper_against_common(surface: str, name: str, text: str) -> bool:
    """ "Green Party" against "Green party", "joined Journey" against "journey": the same words, capitalised
    in the text where the KB's name has a lowercase word, is a proper name against a common noun (a class, a
    type of thing). One word counts only where the text capitalises it inside a sentence every time (any
    word opens a sentence with a capital)."""
    words, names = surface.split(), name.split()
    if len(words) != len(names) or fold(surface) != fold(name):
        return False
    if len(words) == 1:
        return (
            surface[:1].isupper()
            and not surface.isupper()
            and name.islower()
            and name.casefold() not in FUNCTION_WORDS
            and inside_sentences(surface, text)
        )
    return any(w[:1].isupper() and n[:1].islower() and n.casefold() not in FUNCTION_WORDS for w, n in zip(words, names))


def inside_sentences(surface: str, text: str) -> bool:
    """Whether the text writes the word, and never at the start of a sentence, a quotation or a heading."""
    found = occurrences(surface, text)
    return bool(found) and not any(opens_sentence(text, start) for start, _ in found)


def description_words(record: KBRecord, surface: str, text: str) -> int:
    """How many content words of the description occur near the mention, in its sentence ("the stern,
    magical nanny")."""
    own = set(normalize(surface).split())
    described = {
        _stem(w)
        for w in normalize(record.description).split()
        if len(w) > 2 and w not in FUNCTION_WORDS and w not in own
    }
    near = set()
    for at, to in occurrences(surface, text):
        start, end = sentence_at(text, at, to)  # within its sentence
        before = text[start:at].split()[-WINDOW:]
        after = text[to:end].split()[:WINDOW]
        near |= {_stem(w) for w in normalize(" ".join(before + after)).split()}
    return len(described & near)


def _stem(word: str) -> str:
    """ "Shakespeare's" and "Shakespeare", "films" and "film" are one word here."""
    word = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return DEMONYMS.get(word, word)


def _popularity(record: KBRecord) -> int:
    return getattr(record, "sitelinks", None) or 0  # sitelinks, where the KB has them
