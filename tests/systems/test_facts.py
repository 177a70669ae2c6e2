"""The ``facts`` system with a scripted model on the default KB: the table, the KB's labels and one
mapping call put the facts on properties, what no property fits keeps its phrase, arguments the text
does not hold are dropped, values are typed and each fact cites the sentence that states it."""

from __future__ import annotations

import json
import re

import pytest

from graphwright.kb.namespaces import WDT, is_unlinked
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.systems.base import make_system

TEXT = (
    "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. The Danish firm makes ocean sensors "
    "and sponsors the fishing festival. Her son Erik Solberg studied at the University of Oslo and now "
    "coaches the Stavanger rowing club."
)
EXTRACTED = [
    ["Tidewater Instruments", "founded by", "Maren Solberg"],
    ["Tidewater Instruments", "was founded on", "2016"],
    ["Tidewater Instruments", "country", "Danish"],
    ["Erik Solberg", "parent", "Maren Solberg"],
    ["Solberg", "educated at", "University of Oslo"],  # the short name the text never writes alone here
    ["Tidewater Instruments", "makes", "ocean sensors"],
    ["Erik Solberg", "coaches", "Stavanger rowing club"],
    ["Maren Solberg", "country", "Danish"],  # the firm's country copied onto her: "The Danish firm" says nothing of her
    ["Tidewater Instruments", "sponsors", "the fishing festival"],
    ["Maren Solberg", "occupation", "physicist"],  # the prompt's example, copied: not in the text
    ["the company", "headquarters", "Stavanger"],
]


def mapping_answer(user: str) -> str:
    """ "coaches" is P6087 coach of sports team; "sponsors" has no property here."""
    answer = {}
    for number, block in re.findall(r"(\d+)\. (.*?)(?=\n\d+\. |\Z)", user, re.DOTALL):
        letters = re.findall(r"([a-h])\) coach of sports team", block)
        answer[number] = letters[0] if letters and '"coaches"' in block else "none"
    return json.dumps(answer)


def glosses(user: str) -> str:
    """The link check's answer (linking=checked, the default): a gloss that contradicts no candidate."""
    return json.dumps({n: "" for n in re.findall(r"^(\d+)\. ", user.partition("\n\n")[2], re.M)})


def is_link_check(call) -> bool:
    return call["messages"][0]["content"].startswith("You say what the names")


def scripted(extracted=EXTRACTED, mapping=mapping_answer) -> ScriptedLLM:
    def reply(messages, schema) -> str:
        if messages[0]["content"].startswith("You map"):
            return mapping(messages[-1]["content"])
        if is_link_check({"messages": messages}):
            return glosses(messages[-1]["content"])
        return json.dumps({"triples": extracted})

    return ScriptedLLM(reply)


def extraction_calls(calls) -> list:
    return [c for c in calls if not is_link_check(c)]


async def run(default_kb, llm, text: str = TEXT, **settings):
    system = make_system("facts", llm, default_kb, {"map_with_model": True, **settings})
    return await system.run(Document(id="d1", text=text))


def facts_of(result) -> set[tuple[str, str, str]]:
    def show(term) -> str:
        return term.label if term.kind == "iri" else term.value

    return {(show(t.subject), t.predicate.value.removeprefix(WDT), show(t.object)) for t in result.triples}


def answering(*triples: list[str]) -> ScriptedLLM:
    """A model that answers every call with these triples."""
    answer = json.dumps({"triples": [list(t) for t in triples]})
    return ScriptedLLM(lambda messages, schema: answer)


@pytest.fixture
async def ran(default_kb):
    llm = scripted()
    return await run(default_kb, llm), llm.calls


@pytest.fixture
def result(ran):
    return ran[0]


async def test_stated_facts_are_mapped_or_kept_and_the_rest_dropped(result):
    facts = facts_of(result)
    assert ("Tidewater Instruments", "P112", "Maren Solberg") in facts  # the table
    assert ("Tidewater Instruments", "P571", "2016") in facts  # "was founded on": the table, a typed year
    assert ("Maren Solberg", "P40", "Erik Solberg") in facts  # "parent" is P40 with the arguments swapped
    assert ("Erik Solberg", "P69", "University of Oslo") in facts  # the surname grew to the one full name
    assert ("Tidewater Instruments", "P1056", "ocean sensors") in facts  # "makes": another phrasing of "product"
    assert ("Erik Solberg", "P6087", "Stavanger rowing club") in facts  # the mapping call
    assert not {("Maren Solberg", "P27", "Denmark"), ("Maren Solberg", "P17", "Denmark")} & facts  # a copy
    minted = [t for t in result.triples if not t.predicate.value.startswith(WDT)]
    assert [(t.predicate.label, t.object.label) for t in minted] == [("sponsors", "the fishing festival")]
    assert not any("physicist" in str(f) for f in facts) and result.extra["dropped"] == {
        "unstated": 1,
        "unresolved": 1,
        "copied": 1,
    }
    assert any("'the company' refers to a name it does not give" in w for w in result.warnings)


async def test_a_demonym_names_its_country_and_values_are_typed(result):
    country = next(t for t in result.triples if t.predicate.value == WDT + "P17")
    assert country.object.label == "Denmark" and "Danish" in country.provenance.evidence.text
    assert not is_unlinked(country.object.value)  # Denmark is in the default KB
    year = next(t for t in result.triples if t.predicate.value == WDT + "P571")
    assert year.object.kind == "literal" and year.object.datatype.endswith("gYear")


async def test_each_fact_cites_the_sentence_that_states_it(result):
    studied = next(t for t in result.triples if t.predicate.value == WDT + "P69")
    assert studied.provenance.evidence.text.startswith("Her son Erik Solberg studied at the University of Oslo")
    product = next(t for t in result.triples if t.predicate.value == WDT + "P1056")
    assert product.provenance.evidence.text == "The Danish firm makes ocean sensors and sponsors the fishing festival."


async def test_two_calls_and_one_question_per_unmapped_phrase(ran):
    result, calls = ran
    assert len(extraction_calls(calls)) == 2 and len(calls) == 3 and result.usage.llm_calls == 3  # and the link check
    questions = calls[1]["messages"][-1]["content"]
    assert '"coaches"' in questions and '"sponsors"' in questions and '"founded by"' not in questions
    assert result.extra["mapping"] == {"table": 6, "model": 1, "minted": 1}  # "makes" is in the table too


async def test_one_call_when_every_phrase_is_in_the_table(default_kb):
    llm = scripted(extracted=EXTRACTED[:4])
    found = await run(default_kb, llm)
    assert len(extraction_calls(llm.calls)) == 1 and len(found.triples) == 4


async def test_by_default_one_call_and_the_phrases_the_table_lacks_keep_their_phrases(default_kb):
    llm = scripted()
    found = await run(default_kb, llm, map_with_model=False)
    assert len(extraction_calls(llm.calls)) == 1 and len(llm.calls) == 2  # and the link check of the open names
    minted = {t.predicate.label for t in found.triples if not t.predicate.value.startswith(WDT)}
    assert minted == {"coaches", "sponsors"} and found.extra["mapping"] == {"table": 6, "minted": 2}


async def test_a_broken_mapping_answer_keeps_the_facts_under_their_phrases(default_kb):
    llm = scripted(mapping=lambda user: "I think (a)")
    found = await run(default_kb, llm)
    labels = {t.predicate.label for t in found.triples if not t.predicate.value.startswith(WDT)}
    assert labels == {"coaches", "sponsors"}
    assert any("no valid mapping answer" in w for w in found.warnings)


async def test_glean_asks_once_more_for_what_the_first_answer_left_out(default_kb):
    text = "Maren Solberg founded Tidewater Instruments in 2016. Tidewater Instruments is based in Stavanger."
    answers = iter(
        [
            {"triples": [["Tidewater Instruments", "founded by", "Maren Solberg"]]},
            {
                "triples": [
                    ["Tidewater Instruments", "founded by", "Maren Solberg"],
                    ["Tidewater Instruments", "headquarters", "Stavanger"],
                ]
            },
        ]
    )
    llm = ScriptedLLM(lambda messages, schema: json.dumps(next(answers)))
    found = await run(default_kb, llm, text=text, glean=True)
    assert len(llm.calls) == 2 and found.usage.llm_calls == 2
    second = llm.calls[1]["messages"]
    assert second[2]["role"] == "assistant" and "founded by" in second[2]["content"]
    assert "still missing" in second[3]["content"]
    assert {
        ("Tidewater Instruments", "P112", "Maren Solberg"),
        ("Tidewater Instruments", "P159", "Stavanger"),
    } <= facts_of(found)


async def test_the_texts_own_kinship_word_wins_over_the_models(default_kb):
    text = "Fjordlys was founded by the meteorologist Sigrid Aasen and her husband Pål Aasen."
    llm = scripted(extracted=[["Sigrid Aasen", "child", "Pål Aasen"], ["Fjordlys", "founded by", "Sigrid Aasen"]])
    found = facts_of(await run(default_kb, llm, text=text))
    assert ("Sigrid Aasen", "P26", "Pål Aasen") in found and ("Sigrid Aasen", "P40", "Pål Aasen") not in found


async def test_membership_of_a_political_party_is_its_own_property(default_kb):
    text = "Arnold Schwarzenegger is a member of the Republican Party."
    llm = scripted(extracted=[["Arnold Schwarzenegger", "member of", "Republican Party"]])
    assert ("Arnold Schwarzenegger", "P102", "Republican Party") in facts_of(await run(default_kb, llm, text=text))


async def test_a_fact_across_two_sentences_cites_the_one_that_refers_back(default_kb):
    text = "Skarvik Robotics was founded in Tromsø in 2019. Its chief executive is Ingunn Sæther."
    llm = scripted([["Ingunn Sæther", "chief executive", "Skarvik Robotics"]])
    result = await run(default_kb, llm, text, in_passing=False)
    (triple,) = result.triples
    assert triple.provenance.evidence.text == "Its chief executive is Ingunn Sæther."


async def test_a_fact_cites_the_sentence_of_its_value_or_of_the_name_given_later(default_kb):
    text = (
        "Brask Maritime is a Danish shipbuilder. The company was founded in 1987 by Lene Brask. "
        "Brask Maritime's best-known vessel is the Nordlys."
    )
    llm = scripted([["Brask Maritime", "founded on", "1987"], ["Brask Maritime", "founded by", "Lene Brask"]])
    result = await run(default_kb, llm, text, in_passing=False)
    assert {t.provenance.evidence.text for t in result.triples} == {"The company was founded in 1987 by Lene Brask."}


async def test_a_four_digit_count_is_a_number_where_the_relation_takes_no_date(default_kb):
    text = "Skarvik Robotics was founded in 2019 and employs 2400 people."
    llm = scripted([["Skarvik Robotics", "employees", "2400"], ["Skarvik Robotics", "founded on", "2019"]])
    result = await run(default_kb, llm, text, in_passing=False)
    values = {
        t.predicate.value.removeprefix(WDT): (t.object.value, t.object.datatype.rsplit("#", 1)[-1])
        for t in result.triples
    }
    assert values == {"P1128": ("2400", "decimal"), "P571": ("2019", "gYear")}


async def test_a_model_with_the_facts_adapter_gets_the_short_prompt_and_the_adapter(default_kb):
    tuned = ScriptedLLM(
        lambda messages, schema: json.dumps({"triples": EXTRACTED[:3]}),
        adapters={"facts": "qwen-facts-adapter.gguf@0123456789ab"},
    )
    result = await run(default_kb, tuned, map_with_model=False)
    [call] = tuned.calls
    assert call["adapter"] == "facts"
    assert "born on (date)" not in call["messages"][0]["content"]  # no relation table: the adapter knows it
    assert call["messages"][1]["content"] == TEXT
    assert call["json_schema"]["properties"]["triples"]["maxItems"] == 80 and call["max_tokens"] == 1600
    assert call["json_schema"]["properties"]["triples"]["minItems"] == 1  # it may not close the list at once
    assert ("Tidewater Instruments", "P112", "Maren Solberg") in facts_of(result)
    provenance = result.triples[0].provenance
    assert provenance.model == "scripted+qwen-facts-adapter.gguf@0123456789ab"
    assert provenance.prompt_version.startswith("extract_tuned.v1@")


async def test_adapter_none_and_a_model_without_it_get_the_full_prompt(default_kb):
    for llm, settings in (
        (scripted(EXTRACTED[:3]), {}),
        (
            ScriptedLLM(lambda m, s: json.dumps({"triples": EXTRACTED[:3]}), adapters={"facts": "x@1"}),
            {"adapter": "none"},
        ),
    ):
        await run(default_kb, llm, map_with_model=False, **settings)
        assert llm.calls[0]["adapter"] is None
        assert "born on (date)" in llm.calls[0]["messages"][0]["content"]
        assert "minItems" not in llm.calls[0]["json_schema"]["properties"]["triples"]  # "no facts" is an answer


async def test_a_function_word_is_no_argument_and_never_ontario(default_kb):
    text = "Kystferje AS opened its new ferry terminal on 4 June 2021 in Stavanger."
    llm = ScriptedLLM(
        lambda m, s: json.dumps(
            {"triples": [["Kystferje AS", "headquarters", "on"], ["Kystferje AS", "headquarters", "Stavanger"]]}
        )
    )
    result = await run(default_kb, llm, text=text, map_with_model=False)
    assert facts_of(result) == {("Kystferje AS", "P159", "Stavanger")}
    assert any("'on' is a function word" in w for w in result.warnings)


async def test_a_relation_holding_a_count_has_its_object_already(default_kb):
    text = "Harbourline Ferries runs three vessels between Oban and Mull. It has 85 employees."
    llm = answering(
        ["Harbourline Ferries", "runs three vessels", "Oban and Mull"], ["Harbourline Ferries", "employees", "85"]
    )
    result = await run(default_kb, llm, text=text, map_with_model=False)
    assert facts_of(result) == {("Harbourline Ferries", "P1128", "85")}
    assert any("holds its own object, a count" in w for w in result.warnings)


async def test_a_phrase_pointing_back_is_no_argument_and_a_subject_studied_at_is_educated_at(default_kb):
    text = "Aoife Kinsella studied history at University College Dublin. Her grandfather built the museum."
    llm = ScriptedLLM(
        lambda m, s: json.dumps(
            {
                "triples": [
                    ["Aoife Kinsella", "studied history at", "University College Dublin"],
                    ["Aoife Kinsella", "relative", "her grandfather"],
                ]
            }
        )
    )
    result = await run(default_kb, llm, text=text, map_with_model=False)
    assert {(s, p) for s, p, _ in facts_of(result)} == {("Aoife Kinsella", "P69")}
    assert any("'Her grandfather' points back" in w for w in result.warnings)


async def test_a_company_located_in_a_city_has_its_headquarters_there(default_kb):
    text = "Halden Microfluidics GmbH is located in Toruń. It makes sensors."
    llm = answering(["Halden Microfluidics GmbH", "located in", "Toruń"])
    result = await run(default_kb, llm, text=text, map_with_model=False)
    assert facts_of(result) == {("Halden Microfluidics GmbH", "P159", "Toruń")}


async def test_a_chief_executive_needs_the_title_in_the_text(default_kb):
    worked = "Morag Lindsay worked for Tidewater Fjord AS for eleven years."
    fact = ["Tidewater Fjord AS", "chief executive", "Morag Lindsay"]
    for text, kept in ((worked, False), (worked + " She became its chief executive in 2020.", True)):
        result = await run(default_kb, answering(fact), text=text, map_with_model=False)
        assert (("Tidewater Fjord AS", "P169", "Morag Lindsay") in facts_of(result)) is kept
        assert any("names no such title" in w for w in result.warnings) is not kept


async def test_a_birthplace_needs_its_sentence_to_tell_of_a_birth(default_kb):
    founded = "Brekke Hydro AS was founded in 2011 by Solveig Brekke in Florø."
    fact = ["Solveig Brekke", "born in", "Florø"]
    for text, kept in ((founded, False), ("Solveig Brekke was born in Florø in 1971. " + founded, True)):
        result = await run(default_kb, answering(fact), text=text, map_with_model=False)
        assert (("Solveig Brekke", "P19", "Florø") in facts_of(result)) is kept
        assert any("tells of no birth or death" in w for w in result.warnings) is not kept


async def test_its_chief_executive_is_the_companys_not_a_position_of_her_own(default_kb):
    founded = "Halden Microfluidics was founded by Agata Nowicka in 2019."
    facts = (
        ["Halden Microfluidics", "founded by", "Agata Nowicka"],
        ["Agata Nowicka", "position held", "chief executive"],
    )
    its = f"{founded} Nowicka, a former engineer at Intel, is its chief executive."
    result = await run(default_kb, answering(*facts), text=its, map_with_model=False)
    assert ("Halden Microfluidics", "P169", "Agata Nowicka") in facts_of(result)
    assert not any(p == "P39" for _, p, _ in facts_of(result))
    [ceo] = [t for t in result.triples if t.predicate.value.endswith("P169")]
    assert ceo.provenance.evidence.text == "Nowicka, a former engineer at Intel, is its chief executive."
    own = f"{founded} Agata Nowicka is a chief executive."  # no "its": her position, as written
    result = await run(default_kb, answering(*facts), text=own, map_with_model=False)
    assert not any(p == "P169" for _, p, _ in facts_of(result))


async def test_a_fact_turned_round_is_kept_only_where_a_sentence_states_it(default_kb):
    text = (
        "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. She studied physics at the "
        "University of Bergen. Sofie Halvmark is chief executive of Korvbro Analytics."
    )
    llm = ScriptedLLM(
        lambda m, s: json.dumps(
            {
                "triples": [
                    ["Maren Solberg", "founded", "University of Bergen"],  # a small model's slip: no sentence says so
                    ["Sofie Halvmark", "chief executive", "Korvbro Analytics"],  # the other way round, and stated
                    ["Maren Solberg", "founded", "Tidewater Instruments"],  # "founded by", read backwards, and stated
                ]
            }
        )
    )
    result = await run(default_kb, llm, text=text, map_with_model=False)
    assert facts_of(result) == {
        ("Korvbro Analytics", "P169", "Sofie Halvmark"),
        ("Tidewater Instruments", "P112", "Maren Solberg"),
    }
    assert result.extra["dropped"]["turned round"] == 1
    assert any(
        "Maren Solberg, founded, University of Bergen" in w and "no sentence states it" in w for w in result.warnings
    )


async def test_a_company_named_for_what_it_makes_is_an_organisation_and_its_chief_the_object(default_kb):
    text = "Jonas Eide is chief executive officer of Tidewater Instruments, a maker of sonar buoys."
    llm = ScriptedLLM(
        lambda m, s: json.dumps({"triples": [["Jonas Eide", "chief executive officer", "Tidewater Instruments"]]})
    )
    result = await run(default_kb, llm, text=text, map_with_model=False)
    assert facts_of(result) == {("Tidewater Instruments", "P169", "Jonas Eide")}


def test_a_looping_answer_is_caught_when_a_fact_comes_the_third_time():
    from graphwright.systems.facts.system import repeats_a_fact

    fact, other = '["Tidewater Instruments", "employee", "Equinor"]', '["Tidewater Instruments", "employee", "Oslo"]'
    answer = '{"triples": [' + ", ".join([fact, other] * 3)
    assert repeats_a_fact(answer) and repeats_a_fact(answer + ",") and repeats_a_fact(answer + ", ")
    assert not repeats_a_fact('{"triples": [' + ", ".join([fact, other] * 2) + ", " + fact[:-1])
    assert not repeats_a_fact('{"triples": [' + ", ".join([fact, other] * 2))


async def test_a_firm_led_by_a_person_is_managed_by_them_not_coached(default_kb):
    text = "Since 2021 the firm Tidewater Instruments has been led by chief executive Jonas Eide."
    extracted = [["Tidewater Instruments", "led by", "Jonas Eide"]]
    facts = facts_of(await run(default_kb, scripted(extracted), text))
    assert facts == {("Tidewater Instruments", "P1037", "Jonas Eide")}  # director / manager; P286 is head coach


def test_a_sentence_states_a_relation_by_the_stem_of_its_word():
    from graphwright.systems.facts.arguments import Argument
    from graphwright.systems.facts.system import OpenFact, states

    document = Document(id="d", text="The company owns the Eikeland power station. The town has a museum.")
    company = Argument("Brekke Hydro AS", document.span(0, 0), "item")
    station, town = (
        Argument(w, document.span(*m.span()), "item")
        for w in ("Eikeland power station", "town")
        for m in [re.search(w, document.text)]
    )
    owned = OpenFact(company, "owner", station, (None, None))
    assert states("The company owns the Eikeland power station.", owned)
    assert not states("The town has a museum.", OpenFact(company, "owner", town, (None, None))), (
        "'own' of a word's start only"
    )


async def test_a_fact_copied_onto_another_subject_needs_a_sentence_naming_it(default_kb):
    text = (
        "Lise Meitner received the Max Planck Medal in 1949. She worked with Otto Hahn in Berlin, "
        "and Otto Hahn and Fritz Strassmann both joined the Prussian Academy. Hay Day and Clash of Clans "
        "made Supercell rich."
    )
    facts = [
        ["Lise Meitner", "award received", "Max Planck Medal"],
        ["Otto Hahn", "award received", "Max Planck Medal"],  # the model's copy
        ["Otto Hahn", "member of", "Prussian Academy"],
        ["Fritz Strassmann", "member of", "Prussian Academy"],  # its sentence names him
        ["Hay Day", "developer", "Supercell"],
        ["Clash of Clans", "developer", "Supercell"],  # listed with the first
    ]
    result = await run(default_kb, answering(*facts), text=text, map_with_model=False)
    kept = {(s, o) for s, _, o in facts_of(result)}
    assert ("Lise Meitner", "Max Planck Medal") in kept and ("Otto Hahn", "Max Planck Medal") not in kept
    assert {("Otto Hahn", "Prussian Academy"), ("Fritz Strassmann", "Prussian Academy")} <= kept
    assert {("Hay Day", "Supercell"), ("Clash of Clans", "Supercell")} <= kept
    assert result.extra["dropped"].get("copied") == 1


async def test_a_copy_given_first_goes_where_a_clause_tells_the_fact_of_another(default_kb):
    """The model wrote the brother's copy before the fact; a semicolon ends the clause that tells it."""
    text = (
        "Karen Allen founded Harbour Lane Bakery with her brother David Kaye. "
        "Karen Allen is the managing director; David Kaye runs the kitchens."
    )
    facts = [
        ["David Kaye", "position held", "managing director"],  # the copy, first in the answer
        ["Karen Allen", "position held", "managing director"],
    ]
    result = await run(default_kb, answering(*facts), text=text, map_with_model=False)
    kept = {(s, o) for s, _, o in facts_of(result)}
    assert ("Karen Allen", "managing director") in kept and ("David Kaye", "managing director") not in kept
    # the one copy; "the managing director; David Kaye" is no title of his to read in passing either
    assert result.extra["dropped"].get("copied") == 1


async def test_a_count_in_words_is_a_number(default_kb):
    """Own text: "The studio employs six people" gave a minted "employees | six", or nothing for "six people"."""
    text = "Greyfell Ceramics is a pottery in Keswick. The studio employs six people, and the Seven Sisters shop sells its mugs."
    for answer in (["Greyfell Ceramics", "employees", "six"], ["Greyfell Ceramics", "employs", "six people"]):
        assert ("Greyfell Ceramics", "P1128", "6") in facts_of(await run(default_kb, answering(answer), text))
    named = facts_of(await run(default_kb, answering(["Greyfell Ceramics", "owns", "Seven Sisters"]), text))
    assert not any(o == "7" for _, _, o in named)  # a name that begins with a number word is a name


async def test_a_relation_and_its_object_parted_by_a_semicolon_is_dropped(default_kb):
    """Own text: "designs the glazes ... ; Tom Avery builds the kilns" gave "Helen Marsh | designs the glazes |
    Tom Avery"."""
    text = (
        "Helen Marsh founded Greyfell Ceramics with her husband Tom Avery. Helen Marsh designs the glazes and "
        "serves as the studio's director; Tom Avery builds the kilns."
    )
    answer = (
        ["Greyfell Ceramics", "founded by", "Helen Marsh"],
        ["Helen Marsh", "designs the glazes", "Tom Avery"],
        ["Tom Avery", "builds", "kilns"],
    )
    result = await run(default_kb, answering(*answer), text=text, map_with_model=False)
    found = facts_of(result)
    assert not any("glazes" in relation for _, relation, _ in found)
    assert result.extra["dropped"].get("across clauses") == 1
