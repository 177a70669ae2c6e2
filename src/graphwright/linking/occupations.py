"""What a person does, as a KB description or the text says it, in broad families (issue 61).

The KB often holds a lesser namesake of the person a text means: the actor John Hancock for the signer, the
politician Tom Watson for the golfer. Where both the KB's description ("American actor (1941-1992)") and
the text, right with the name ("Tom Watson, the golfer from Kansas City"; "the Stoke-on-Trent potter David
White"), name an occupation, and no family of the one is a family of the other, they are two people. Only
those two places are read: elsewhere a career word may be a role ("Tony Curtis and Jack Lemmon play
musicians"), and the model's gloss of a name measured too loose to judge by (Reagan "a former actor",
Lincoln "a lawyer" against the presidents' descriptions; see docs/decisions.md). Families are broad on purpose (a statesman, a
senator and an activist are all politics; a scientist and a historian are both scholarship) so that two
ways of saying one career never clash; a word that names several careers ("director", "minister",
"player") belongs to each of them, and an athlete to every sport.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphwright.linking.vocabulary import Vocabulary

HUMAN = "Q5"  # Wikidata's class of people

_SPORTS = (
    "football golf tennis basketball baseball cricket hockey athletics cycling boxing swimming skiing motorsport "
    "rugby wrestling chess"
).split()
#: careers by family, "|" between terms (a term may be several words)
FAMILIES: dict[str, str] = {
    "politics": (
        "politician|statesman|stateswoman|senator|congressman|congresswoman|governor|mayor|president|"
        "prime minister|minister|diplomat|ambassador|chancellor|legislator|lawmaker|member of parliament|"
        "premier|activist|founding father|signer|signatory|revolutionary|civil servant|councillor|councilor|"
        "campaigner|suffragist|abolitionist|senate|congress|parliament"
    ),
    "law": "lawyer|attorney|judge|jurist|barrister|solicitor|justice",
    "royalty": (
        "king|queen|prince|princess|monarch|emperor|empress|duke|duchess|earl|countess|baron|nobleman|"
        "noblewoman|aristocrat|pharaoh|sultan|tsar|consort"
    ),
    "military": (
        "soldier|general|admiral|colonel|military officer|army officer|naval officer|commander|marshal|"
        "lieutenant|sergeant|captain"
    ),
    "religion": (
        "priest|bishop|cardinal|pope|theologian|monk|nun|rabbi|imam|pastor|minister|missionary|saint|cleric|preacher"
    ),
    "acting": "actor|actress|comedian|entertainer|performer|television presenter",
    "film": (
        "film director|filmmaker|film producer|director|producer|screenwriter|cinematographer|animator|"
        "television director"
    ),
    "music": (
        "singer|musician|composer|songwriter|rapper|guitarist|pianist|violinist|drummer|conductor|bassist|"
        "vocalist|cellist|organist|player"
    ),
    "writing": "writer|author|novelist|poet|playwright|dramatist|essayist|screenwriter|lyricist|biographer|editor",
    "journalism": (
        "journalist|reporter|editor|broadcaster|columnist|presenter|newscaster|publisher|commentator|anchorman|"
        "anchorwoman|newsreader"
    ),
    "scholarship": (
        "scientist|physicist|chemist|biologist|mathematician|astronomer|geologist|botanist|zoologist|"
        "economist|engineer|inventor|researcher|professor|academic|scholar|historian|philosopher|linguist|"
        "archaeologist|anthropologist|sociologist|psychologist|lecturer|teacher|schoolteacher|educator|"
        "explorer|geographer|naturalist|programmer|software developer|computer scientist|surveyor"
    ),
    "medicine": "physician|doctor|surgeon|nurse|pharmacist|psychiatrist|dentist|midwife",
    "business": (
        "businessman|businesswoman|businessperson|entrepreneur|executive|chief executive|banker|investor|"
        "industrialist|merchant|financier|director|founder|owner|shopkeeper|trader|tycoon|magnate|publisher|"
        "accountant|consultant|salesman|saleswoman|manager"
    ),
    "art": "painter|sculptor|artist|photographer|illustrator|architect|designer|cartoonist|printmaker",
    "dance": "dancer|choreographer|ballerina",
    "crafts": (
        "potter|carpenter|blacksmith|weaver|plumber|electrician|mechanic|baker|chef|cook|tailor|jeweller|"
        "jeweler|brewer|builder|boat builder|boatbuilder|shipbuilder|welder|fitter|machinist|joiner|mason|"
        "bricklayer|roofer|locksmith|butcher|miner|docker|labourer|laborer|factory worker|worker"
    ),
    "land": "farmer|dairy farmer|rancher|fisherman|shepherd|forester|gardener|winemaker|cheesemaker|beekeeper",
    "transport": (
        "driver|pilot|aviator|sailor|astronaut|navigator|seafarer|mariner|seaman|skipper|ferry captain|"
        "sea captain|ship captain|captain"
    ),
    "football": "footballer|soccer player|football player|quarterback|goalkeeper",
    "golf": "golfer",
    "tennis": "tennis player",
    "basketball": "basketball player",
    "baseball": "baseball player|pitcher",
    "cricket": "cricketer",
    "hockey": "hockey player|ice hockey player",
    "athletics": "sprinter|runner|hurdler|marathoner|long jumper|high jumper|decathlete",
    "cycling": "cyclist",
    "boxing": "boxer",
    "swimming": "swimmer",
    "skiing": "skier",
    "motorsport": "racing driver|driver",
    "rugby": "rugby player|rugby union player",
    "wrestling": "wrestler",
    "chess": "chess player|grandmaster",
}
#: careers that lead into politics: a rancher, lawyer or officer elected governor is still the governor
INTO_POLITICS = frozenset({"law", "business", "land", "military"})
#: words for someone in sport at large: they clash with no sport, only with careers outside it
SPORT_AT_LARGE = ("athlete", "sportsman", "sportswoman", "sportsperson", "olympian", "coach", "player", "captain")
# the noun phrase that says what someone is ends here: "an American merchant and statesman from Boston"; not
# at a comma, which lists careers ("film director, screenwriter, and film producer")
_HEAD_END = re.compile(
    r"[;(]|\b(?:who|whose|whom|where|when|which|that|named|after|known|from|in|for|during|between|at|with|since|until|as)\b"
    r"|\bof\b(?!\s+parliament)"
)


# a career taken up later, as a text writes it of someone: "he was elected president", "became governor"
_LATER_CAREER = re.compile(
    r"\b(?:elected|became|becomes|become|appointed|named|served as|serves as|sworn in as|made|turned)\s+"
    r"(?:(?:a|an|the|its|their|his|her)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+",
    re.I,
)


CAREERS = Vocabulary(FAMILIES, extra={word: _SPORTS for word in SPORT_AT_LARGE})


def head(phrase: str) -> str:
    """The part of a description or apposition that says what someone is, before where, when and whom."""
    match = _HEAD_END.search(phrase)
    return phrase[: match.start()] if match else phrase


def occupations(phrase: str) -> frozenset[str]:
    """The families of the careers ``phrase`` names: "American merchant and statesman" -> business,
    politics; "singer-songwriter and actress" -> music, writing, acting; "a man" -> none."""
    return CAREERS.families(phrase)


@lru_cache(maxsize=256)  # asked once per candidate of the name
def written_career(surface: str, text: str) -> str:
    """What the text writes a person is, right with the name: the head of an apposition after it ("Tom
    Watson, the golfer from Kansas City" -> "the golfer"; "John Hancock, president of the Second Continental
    Congress" -> "president") and the words right before it that end in a career or title ("the
    Stoke-on-Trent potter David White", "Governor Mark Gordon"); "" where it writes none."""
    name = re.escape(surface)
    said = []
    for match in re.finditer(rf"(?<!\w){name},\s+([^,.;:!?]+)", text):
        apposition = head(match.group(1))
        # with its article, or opening on a career ("president of ..."); not a verb ("X, stars Prince")
        if re.match(r"(?:a|an|the)\s", apposition) or CAREERS.is_term(" ".join(apposition.casefold().split()[:1])):
            said.append(apposition)
    for match in re.finditer(rf"((?:[\w'’-]+\s+){{0,2}}[\w'’-]+,?\s+){name}(?!\w)", text):  # "anchorman, Howard Beale"
        words = re.sub(r"[^\w\s]", " ", match.group(1).casefold()).split()
        for size in (3, 2, 1):  # the longest career the words end in: "film director", not "director"
            if len(words) >= size and CAREERS.is_term(" ".join(words[-size:])):
                said.append(" ".join(words[-size:]))
                break
    return "; ".join(said)


@lru_cache(maxsize=256)
def later_careers(surface: str, text: str) -> str:
    """The careers the text says a person took up, in the sentences that name them or say "he" or "she":
    "Interned under martial law, he was elected president ten years later." -> "elected president"."""
    person = rf"\b(?:{re.escape(surface.split()[-1])}|he|she)\b" if surface.split() else r"\b(?:he|she)\b"
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return " ".join(
        m.group(0)
        for sentence in sentences
        if re.search(person, sentence, re.I)
        for m in _LATER_CAREER.finditer(sentence)
    )


def career_fit(said: str, described: str, later: str = "") -> tuple[str | None, bool]:
    """Whether a KB person's description fits what the text says they are (``said``; ``later``: the careers
    it says they took up later): why not (their careers share no family, and none of the description's is a
    later one: "Lech Walesa, an electrician ... he was elected president"; a namesake's career the text names
    to tell them apart, "no relation to the film director", does not count), and whether it agrees (they
    share one); neither where either names no career."""
    ours, theirs = occupations(said), occupations(described)
    if not ours or not theirs:
        return None, False
    if ours & theirs:
        return None, True
    if theirs & occupations(later):
        return None, False
    if ("politics" in theirs and ours & INTO_POLITICS) or ("politics" in ours and theirs & INTO_POLITICS):
        return None, False
    return f"the text's {said.strip()} is not {described.strip()}", False
