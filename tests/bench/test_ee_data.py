"""Event-extraction datasets: gold texts at their offsets, schemas that cover the data, test and pool apart."""

from __future__ import annotations

import pytest

from graphwright.bench.data.ee_data import EE_DATASETS, align_tokens, load_ee_dataset
from graphwright.bench.eval.datasets import DATASETS, load_dataset
from graphwright.errors import DataNotFoundError
from graphwright.paths import data_dir
from graphwright.text import sentence_spans

FOLDERS = {
    "wikievents": "wikievents",
    "casie": "casie",
    "rams": "rams",
    "genia-event": "genia-event",
    "phee": "genia-event",
    "mlee": "genia-event",
}


def needs(name: str):
    folder = data_dir() / FOLDERS[name]
    return pytest.mark.skipif(
        not folder.is_dir(), reason=f"{name}: EE data not found under {folder} (set GRAPHWRIGHT_DATA_DIR)"
    )


def test_every_dataset_is_registered_for_eval():
    assert sorted(EE_DATASETS.names()) == sorted(FOLDERS)
    for name in FOLDERS:
        assert name in DATASETS and DATASETS.get(name).__doc__.strip()


@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_datasets_hold_exact_offsets_covered_by_their_schema(name):
    if not (data_dir() / FOLDERS[name]).is_dir():
        pytest.skip(f"{name}: EE data not found under {data_dir() / FOLDERS[name]} (set GRAPHWRIGHT_DATA_DIR)")
    data = load_ee_dataset(name)
    assert data.test and data.pool and data.note
    roles = {e.name: set(e.roles) for e in data.schema.events}
    for sample in data.test + data.pool:
        assert sample.events, f"{sample.id} has no event"
        for event in sample.events:
            assert sample.text[event.start : event.end] == event.trigger and event.trigger.strip()
            assert event.type in roles, f"{sample.id}: {event.type} not in the schema"
            for argument in event.arguments:
                assert sample.text[argument.start : argument.end] == argument.surface and argument.surface.strip()
                assert argument.role in roles[event.type], f"{sample.id}: {event.type}/{argument.role}"
    assert not {s.text for s in data.test} & {s.text for s in data.pool}, "a pool item is also a test item"
    ids = [s.id for s in data.test + data.pool]
    assert len(ids) == len(set(ids))
    assert load_ee_dataset(name) is data  # read once per process


@pytest.mark.parametrize(
    "name, test, pool, types",
    [
        ("wikievents", 206, 182, 49),
        ("casie", 846, 5182, 5),  # 5183 with the sentence rules before graphwright.text
        ("rams", 770, 800, 139),
        ("genia-event", 440, 255, 9),
        ("phee", 965, 964, 2),
        ("mlee", 673, 354, 25),
    ],
)
def test_dataset_sizes(name, test, pool, types):
    if not (data_dir() / FOLDERS[name]).is_dir():
        pytest.skip(f"{name}: EE data not found under {data_dir() / FOLDERS[name]}")
    data = load_ee_dataset(name)
    assert (len(data.test), len(data.pool), len(data.schema.events)) == (test, pool, types)


@needs("wikievents")
def test_wikievents_sentences_keep_the_original_text():
    data = load_ee_dataset("wikievents")
    first = data.test[0]
    assert first.id == "wiki_mass_car_bombings_1_news_8-s0"
    assert first.text.startswith("The Taliban killed more than 100 members of the Afghan security forces")
    die = first.events[0]
    assert (die.type, die.trigger) == ("Life.Die.Unspecified", "killed")
    assert [(a.role, a.surface) for a in die.arguments] == [("Killer", "The Taliban"), ("Victim", "members")]
    assert data.schema.get("Conflict.Attack.Unspecified").roles[:4] == ["Place", "Instrument", "Target", "Attacker"]
    # argument texts written as the article wrote them, not as re-joined tokens
    assert any(a.surface == "U.S." for s in data.test + data.pool for e in s.events for a in e.arguments)


@needs("casie")
def test_casie_split_and_types():
    data = load_ee_dataset("casie")
    assert data.schema.names == ["Databreach", "DiscoverVulnerability", "PatchVulnerability", "Phishing", "Ransom"]
    assert all(e.description for e in data.schema.events)
    articles = lambda items: {int(s.id.split("-s")[0]) for s in items}  # noqa: E731
    test, pool = articles(data.test), articles(data.pool)
    assert 140 <= len(test) <= 150 and len(pool) <= 850 and not test & pool
    assert min(test) < 10000 < max(test), "the test articles come from both collections (numbers below and above 10000)"


@needs("rams")
def test_rams_roles_lose_their_prefix_and_windows_are_merged():
    data = load_ee_dataset("rams")
    first = data.test[0]
    assert first.id == "nw_RC00c8620ef5810429342a1c339e6c76c1b0b9add3f6010f04482fd832"
    assert first.text.startswith('We are ashamed of them . "')
    event = first.events[0]
    assert event.type == "contact.prevarication.broadcast"
    assert {a.role for a in event.arguments} == {"communicator", "recipient", "place"}
    assert data.schema.get("artifactexistence.damagedestroy.damage").roles == [
        "damager",
        "artifact",
        "instrument",
        "place",
    ]
    assert max(len(s.events) for s in data.test) > 1  # several records of one window became one item
    assert len({s.text for s in data.test}) == len(data.test)


@needs("genia-event")
def test_genia_keeps_the_original_text_and_splits_by_document():
    data = load_ee_dataset("genia-event")
    first = data.test[0]
    assert first.id == "PMID-10089566_0"
    assert first.text.startswith("Involvement of adenylate cyclase and p70(S6)-kinase activation")
    assert [(e.type, e.trigger) for e in first.events][:3] == [
        ("Regulation", "Involvement"),
        ("Positive_regulation", "activation"),
        ("Positive_regulation", "up-regulation"),
    ]
    assert [(a.role, a.surface) for a in first.events[2].arguments] == [("Theme", "IL-10"), ("Cause", "gp41")]
    documents = lambda items: {s.id.rsplit("_", 1)[0] for s in items}  # noqa: E731
    assert not documents(data.test) & documents(data.pool)
    assert data.schema.get("Binding").description


@needs("phee")
def test_phee_roles():
    data = load_ee_dataset("phee")
    assert data.schema.names == ["Adverse_event", "Potential_therapeutic_event"]
    assert "Treatment_Drug" in data.schema.get("Adverse_event").roles


@needs("mlee")
def test_mlee_runs_as_an_eval_dataset():
    data = load_dataset("mlee", limit=2)
    assert data.task == "ee" and data.kb == "none" and data.system_settings == {"dataset": "mlee"}
    assert len(data.documents) == 2 and all(d.events for d in data.documents)
    assert data.documents[0].events[0].trigger == "mediated"


def test_missing_data_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_DATA_DIR", str(tmp_path))
    for name in FOLDERS:
        with pytest.raises(DataNotFoundError, match="GRAPHWRIGHT_DATA_DIR"):
            EE_DATASETS.get(name)()


def test_sentence_split_and_token_alignment():
    text = 'Mr. Smith met Dr. J. Doe in the U.S. on Nov. 8. "It was bad," he said.  Then he left! 2 more came.'
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Mr. Smith met Dr. J. Doe in the U.S. on Nov. 8.",
        '"It was bad," he said.',
        "Then he left!",
        "2 more came.",
    ]
    assert align_tokens("p70(S6)-kinase up", ["p70", "(", "S6", ")", "-", "kinase", "up"]) == [
        (0, 3),
        (3, 4),
        (4, 6),
        (6, 7),
        (7, 8),
        (8, 14),
        (15, 17),
    ]
    assert align_tokens("a b", ["a", "c"]) is None
