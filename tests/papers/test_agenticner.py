"""agenticner with a scripted model: the supervisor's routing, the turn cap, grounding once, the
researcher's view, the Metaprompter cache, the single-call baseline and web search on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.papers.agenticner.search import LocalSearch, SearchUnavailableError, WebSearch
from graphwright.systems.base import make_system

TEXT = "Angela Merkel visited Paris ."
TAGGED = "<output><person>Angela Merkel</person> visited <location>Paris</location> .</output>"
ROLES = {
    "metaprompter": "expert prompt engineer",
    "tagger": "named entity tagger for",
    "reviewer": "You review",
    "researcher": "research assistant",
}


class Chat:
    def __init__(self, **replies):
        self.replies = {k: list(v) for k, v in replies.items()}
        self.seen: dict[str, list[list[dict]]] = {k: [] for k in ROLES}

    def __call__(self, messages, schema=None):
        # a prompt the Metaprompter wrote has no fixed wording: anything unrecognised is the tagger
        role = next((r for r, marker in ROLES.items() if marker in messages[0]["content"]), "tagger")
        self.seen[role].append(messages)
        assert self.replies.get(role), f"no reply left for {role}"
        return self.replies[role].pop(0)


@pytest.fixture()
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    domain = tmp_path / "news.yaml"
    domain.write_text("name: news\ndomain: News.\ntypes:\n  person: People.\n  location: Places.\n")
    examples = tmp_path / "examples.jsonl"
    examples.write_text(
        json.dumps({"text": "<person>Paris Hilton</person> flew to <location>Rome</location> ."}) + "\n"
    )
    return {"domain_file": str(domain), "examples_file": str(examples), "metaprompt": False}


async def run(chat, settings, system="agenticner.paper"):
    llm = ScriptedLLM(chat)
    result = await make_system(system, llm, None, settings).run(Document(id="d", text=TEXT))
    return result, llm


def found(result):
    return sorted((e.label, e.types[0].rsplit("/", 1)[1]) for e in result.entities)


async def test_review_search_and_approval(settings):
    chat = Chat(
        tagger=[
            "<output><person>Angela Merkel</person> visited Paris .</output>",
            "<search>Is Paris a place?</search>",
            TAGGED,
        ],
        reviewer=["<feedback>Paris is missing.</feedback>", "APPROVED!"],
        researcher=["<answer>Paris is the capital of France.</answer>"],
    )
    result, llm = await run(chat, settings)
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    assert [s.node for s in result.trace] == [
        "tagger",
        "reviewer",
        "supervisor",
        "tagger",
        "researcher",
        "tagger",
        "reviewer",
    ]
    researcher_view = chat.seen["researcher"][0][-1]["content"]
    assert "Is Paris a place?" in researcher_view and "Angela Merkel visited" not in researcher_view, (
        "the researcher sees only the question"
    )
    assert "[researcher]: <answer>Paris is the capital" in chat.seen["tagger"][2][-1]["content"]
    assert "Rome" in chat.seen["tagger"][0][0]["content"], "the examples are in the tagger's prompt"
    mention = result.entities[1].mentions[0]
    assert (mention.span.start, mention.span.end) == (22, 27)


async def test_grounding_runs_once_and_the_revision_is_final(settings):
    chat = Chat(
        tagger=[
            "<output><location>Paris Hilton</location> visited <location>Paris</location> .</output>",
            "<output><person>Paris Hilton</person> visited <location>Paris</location> .</output>",
        ],
        reviewer=["APPROVED!"],
    )
    text = "Paris Hilton visited Paris ."
    llm = ScriptedLLM(chat)
    result = await make_system("agenticner.paper", llm, None, settings).run(Document(id="d", text=text))
    grounding = [s for s in result.trace if s.node == "grounding"]
    assert (
        len(grounding) == 1
        and "'Paris Hilton' is tagged as 'location'. It should likely be person instead" in grounding[0].output
    )
    assert found(result) == [("Paris", "location"), ("Paris Hilton", "person")]
    assert len(chat.seen["reviewer"]) == 1, "the answer to grounding is not reviewed again"


async def test_turn_cap_keeps_the_last_tagger_output(settings):
    first = "<output><person>Angela Merkel</person> visited Paris .</output>"
    chat = Chat(tagger=[first, TAGGED], reviewer=["<feedback>Again.</feedback>"] * 2)
    result, llm = await run(chat, {**settings, "max_turns": 4})
    assert len(llm.calls) == 4 and found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    assert any("reached 4 turns" in w for w in result.warnings)


async def test_a_repeated_output_ends_the_review(settings):
    feedback = "<feedback>Merkel is not a person.</feedback>"
    chat = Chat(tagger=[TAGGED, TAGGED], reviewer=[feedback])
    result, llm = await run(chat, {**settings, "grounding": False})
    assert len(llm.calls) == 3 and not result.warnings
    assert [s.node for s in result.trace][-1] == "supervisor" and "kept its output" in result.trace[-1].output
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    paper = Chat(tagger=[TAGGED, TAGGED, TAGGED], reviewer=[feedback] * 2)
    result, llm = await run(paper, {**settings, "grounding": False, "stop_on_repeat": False, "max_turns": 5})
    assert len(llm.calls) == 5 and any("reached 5 turns" in w for w in result.warnings)


async def test_an_output_that_is_not_the_text_is_asked_again(settings):
    answer = "<output>Paris is the capital and largest city of France.</output>"
    chat = Chat(tagger=[answer, TAGGED], reviewer=["APPROVED!"])
    result, llm = await run(chat, {**settings, "grounding": False})
    assert [s.node for s in result.trace] == ["tagger", "supervisor", "tagger", "reviewer"]
    assert "not the text to tag" in result.trace[1].output
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    only_wrong = Chat(tagger=[answer], reviewer=[])
    result, _ = await run(only_wrong, {**settings, "max_turns": 1})
    assert result.entities == [] and any("never gave an <output>" in w for w in result.warnings)


async def test_an_output_that_lists_mentions_of_the_text_is_an_answer(settings):
    chat = Chat(
        tagger=["<output><person>Angela Merkel</person>, <location>Paris</location></output>"], reviewer=["APPROVED!"]
    )
    result, llm = await run(chat, {**settings, "grounding": False})
    assert [s.node for s in result.trace] == ["tagger", "reviewer"]
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    assert [(m.span.start, m.span.end) for e in result.entities for m in e.mentions] == [(0, 13), (22, 27)]


@pytest.mark.parametrize(
    "review", ["<feedback>...</feedback>", "<feedback>APPROVED!</feedback>", "<feedback> approved </feedback>"]
)
async def test_feedback_without_words_counts_as_approval(settings, review):
    chat = Chat(tagger=[TAGGED], reviewer=[review])
    result, llm = await run(chat, {**settings, "grounding": False})
    assert len(llm.calls) == 2 and found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    assert [s.node for s in result.trace] == ["tagger", "reviewer"]


async def test_feedback_that_names_a_change_is_not_approval(settings):
    chat = Chat(
        tagger=[TAGGED.replace("<location>Paris</location>", "Paris"), TAGGED],
        reviewer=["<feedback>Paris is missing; otherwise APPROVED!</feedback>", "APPROVED!"],
    )
    result, llm = await run(chat, {**settings, "grounding": False})
    assert [s.node for s in result.trace] == ["tagger", "reviewer", "supervisor", "tagger", "reviewer"]
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")]


async def test_without_researcher_the_supervisor_says_so(settings):
    chat = Chat(tagger=["<search>Who is Merkel?</search>", TAGGED], reviewer=["APPROVED!"])
    result, _ = await run(chat, {**settings, "researcher": False})
    assert "The researcher is not available" in next(s.output for s in result.trace if s.node == "researcher")
    assert "<search>" not in chat.seen["tagger"][0][0]["content"].split("Examples:")[0], "no search in the prompt"


async def test_single_call_baseline_and_metaprompt_cache(settings):
    written = (
        "<prompt>You tag news. Types: person (people), location (places). Copy the text, add tags, answer in "
        "<output>. " + "Be careful. " * 20 + "\n[[EXAMPLES]]</prompt>"
    )
    chat = Chat(metaprompter=[written], tagger=[TAGGED, TAGGED])
    single = {**settings, "metaprompt": True}
    result, llm = await run(chat, single, "agenticner.single")
    assert len(llm.calls) == 2 and found(result) == [("Angela Merkel", "person"), ("Paris", "location")]
    assert "You tag news" in chat.seen["tagger"][0][0]["content"] and "Rome" in chat.seen["tagger"][0][0]["content"]
    again, llm = await run(chat, single, "agenticner.single")
    assert len(llm.calls) == 1, "the generated prompt is cached per configuration"


async def test_an_unusable_written_prompt_falls_back_to_the_template_and_says_so_each_run(settings):
    chat = Chat(metaprompter=["<prompt>Tag things.</prompt>"], tagger=[TAGGED, TAGGED], reviewer=["APPROVED!"] * 2)
    team = {**settings, "metaprompt": True, "researcher": False}
    result, llm = await run(chat, team)
    prompt = chat.seen["tagger"][0][0]["content"]
    assert "named entity tagger for" in prompt and prompt.count("<objection>") == 1
    assert any("Metaprompter's prompt was unusable" in w for w in result.warnings)
    again, llm = await run(chat, team)
    assert not chat.seen["metaprompter"][1:] and any("unusable" in w for w in again.warnings)


async def test_a_written_prompt_without_the_answer_format_gets_the_rules(settings):
    written = "<prompt>You tag news. Types: person (people), location (places). " + "Be careful. " * 20 + "</prompt>"
    chat = Chat(metaprompter=[written], tagger=[TAGGED])
    result, _ = await run(chat, {**settings, "metaprompt": True}, "agenticner.single")
    prompt = chat.seen["tagger"][0][0]["content"]
    assert "You tag news" in prompt and "Put the tagged text inside <output>...</output>" in prompt
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")] and not result.warnings


async def test_web_search_on_a_local_server():
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            data = json.dumps(
                {"answer": f"about {body['query']}", "results": [{"title": "T", "content": "C"}]}
            ).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/search"
        assert await WebSearch(url).search("5D SUGRA") == ["about 5D SUGRA", "T: C"]
    finally:
        server.shutdown()
        server.server_close()
    with pytest.raises(SearchUnavailableError):
        await WebSearch(url, timeout=1).search("x")


async def test_local_search_finds_passages_that_share_a_word_and_nothing_else(tmp_path):
    (tmp_path / "notes.md").write_text("Cisplatin is a chemotherapy drug.\n\nThe lab moved in May.", encoding="utf-8")
    search = LocalSearch.from_files([tmp_path], extra=["Chemical: substances and compounds"])
    assert await search.search("what is cisplatin?") == ["Cisplatin is a chemotherapy drug."]
    assert await search.search("quantum chromodynamics") == []


def test_examples_cover_every_type_the_pool_has():
    from graphwright.model.labelled import NERSample
    from graphwright.papers.agenticner.examples import sample_examples

    def sample(i, tags):
        return NERSample(id=f"s{i}", tokens=[f"w{j}" for j in range(len(tags))], tags=tags)

    pool = [
        sample(0, ["B-a", "O"]),
        sample(1, ["B-b", "O", "B-c"]),
        sample(2, ["O", "O"]),
        sample(3, ["B-d"]),
        sample(4, ["O", "B-a", "O", "O"]),
    ]
    picked = sample_examples(pool, ["a", "b", "c", "d", "e"], n=2, seed=1)
    assert {c.type for s in picked for c in s.entities} == {"a", "b", "c", "d"}  # "e" is not in the pool
    assert len(picked) == 3 and len({s.id for s in picked}) == 3
    assert len(sample_examples(pool, ["a"], n=2)) == 2


async def test_the_kb_can_correct_types_and_tag_what_the_tagger_left(settings, tmp_path):
    kb = tmp_path / "kb.tsv"
    kb.write_text("Paris\tlocation\nAngela Merkel\tperson\nvisited\tlocation\n")
    wrong = "<output><location>Angela Merkel</location> visited Paris .</output>"
    chat = Chat(tagger=[wrong])
    advice_only, _ = await run(chat, {**settings, "kb_file": str(kb)}, "agenticner.single")
    assert found(advice_only) == [("Angela Merkel", "location")], "without the settings the single call stands"

    chat = Chat(tagger=[wrong])
    acting = {**settings, "kb_file": str(kb), "kb_types": True, "kb_spot": True}
    result, llm = await run(chat, acting, "agenticner.single")
    assert len(llm.calls) == 1
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location"), ("visited", "location")]


def test_kb_spotting_skips_short_phrases_overlaps_and_words_the_labels_seldom_tag():
    from graphwright.model.labelled import NERSample
    from graphwright.papers.agenticner.grounding import GroundingKB

    def sample(tokens, tags):
        return NERSample(id="s", tokens=tokens.split(), tags=tags.split())

    kb = GroundingKB.from_samples(
        [
            sample("deep learning uses a neural network", "B-field I-field O O B-algorithm I-algorithm"),
            sample("a network of roads", "O O O O"),
            sample("the network helps", "O B-algorithm O"),  # "network": tagged in one of its two free occurrences
            sample("AI in the Journal of AI", "B-field O O B-conference I-conference I-conference"),
        ]
    )
    assert kb.tagged_share["network"] == 0.5, "inside 'neural network' it was not left untagged"
    assert kb.tagged_share["ai"] == 1.0, "an occurrence inside a longer mention is not an untagged one"
    text = "Deep  learning beats a network; AI and neural network models"
    spots = kb.spot([(44, 51, "misc")], text)  # "neural" already tagged as part of a mention
    assert [(text[s:e], t) for s, e, t in spots] == [("Deep  learning", "field")], (
        "AI is under 4 characters, network is seldom tagged, neural network overlaps a mention"
    )
    assert kb.retype([(0, 14, "task"), (23, 30, "algorithm"), (61, 67, "misc")], text + " robots") == [
        (0, 14, "field"),
        (23, 30, "algorithm"),
        (61, 67, "misc"),
    ], "a known phrase gets the KB's type; a type the KB lists stays, and so does an unknown phrase"


@pytest.mark.parametrize("system", ["agenticner", "agenticner.lean"])
async def test_the_small_model_team_has_no_reviewer_and_lets_the_kb_act(settings, tmp_path, system):
    kb = tmp_path / "kb.tsv"
    kb.write_text("Angela Merkel\tperson\n")
    chat = Chat(
        tagger=["<output><location>Angela Merkel</location> visited <location>Paris</location> .</output>"],
        researcher=[],
    )
    result, llm = await run(chat, {**settings, "kb_file": str(kb), "grounding": False}, system)
    assert len(llm.calls) == 1 and not chat.seen["reviewer"]
    assert found(result) == [("Angela Merkel", "person"), ("Paris", "location")]


def test_agenticner_is_set_up_for_small_models_and_each_setting_can_change(settings):
    config = make_system("agenticner", ScriptedLLM([]), None, settings).config
    assert (config.reviewer, config.kb_types, config.kb_spot) == (False, True, True)
    paper = make_system("agenticner.paper", ScriptedLLM([]), None, settings).config
    assert (paper.reviewer, paper.kb_types, paper.kb_spot) == (True, False, False), "the paper's team"
    assert make_system("agenticner", ScriptedLLM([]), None, {**settings, "reviewer": True}).config.reviewer
