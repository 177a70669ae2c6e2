"""The abstention: a link too little speaks for is minted, and its support is logged (issue 61)."""

from __future__ import annotations

import asyncio

from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.kb.records import KBRecord
from graphwright.linking import LinkJudge, Resolver
from graphwright.linking.abstain import (
    FEATURES,
    Abstention,
    LinkSupport,
    features,
    fitted_for,
    other_names,
    shipped_abstention,
)
from graphwright.linking.names import normalize
from graphwright.model import Document
from graphwright.systems.facts.kb_names import KBNames


def support(**kw) -> LinkSupport:
    values = dict(
        settled=False, agreement=(0, False, 0), namesakes=1, others_left=0, gloss=None, gloss_kinds=None, confidence=0.9
    )
    return LinkSupport(**{**values, **kw})


def person(qid: str, label: str, description: str) -> KBRecord:
    return KBRecord(id=qid, kind="entity", label=label, description=description, types=["Q5"])


def named(values: list[float]) -> dict[str, float]:
    return dict(zip(FEATURES, values))


def test_a_gloss_that_writes_the_description_speaks_for_the_link():
    hanks = person("Q2263", "Tom Hanks", "American actor and producer")
    said = named(
        features(
            "Tom Hanks",
            hanks,
            "Tom Hanks starred in it.",
            support(gloss="an American actor", gloss_kinds=("person", "person")),
        )
    )
    assert said["gloss_shares_description"] == 1.0 and said["person_glossed_apart"] == 0.0
    apart = named(
        features(
            "Tom Hanks", hanks, "Tom Hanks bakes bread.", support(gloss="a baker", gloss_kinds=("person", "person"))
        )
    )
    assert apart["gloss_shares_description"] == 0.0 and apart["person_glossed_apart"] == 1.0


def test_an_item_number_is_read_only_from_wikidata_ids():
    late, early = person("Q3018199", "David Kaye", "voice actor"), person("Q42", "Douglas Adams", "writer")
    own = person("ex:staff-7", "David Kaye", "voice actor")
    text = "David Kaye spoke."
    assert named(features("David Kaye", late, text, support()))["late_item"] == 1.0
    assert named(features("Douglas Adams", early, text, support()))["late_item"] == 0.0
    assert named(features("David Kaye", own, text, support()))["item_number"] == 6.0 / 8  # neutral


def test_the_threshold_decides():
    values = features("Tom Hanks", person("Q2263", "Tom Hanks", "actor"), "Tom Hanks.", support())
    weights = tuple(0.0 for _ in FEATURES)  # a chance of one half
    assert Abstention(weights, 0.4).abstains(values) and not Abstention(weights, 0.6).abstains(values)


def test_the_shipped_model_loads_with_its_features():
    shipped = shipped_abstention()
    assert len(shipped.weights) == len(FEATURES) and 0 < shipped.threshold < 1


def link(default_kb, text: str, surface: str, gloss: str) -> tuple[str | None, list[dict]]:
    resolver = Resolver(
        LinkJudge(default_kb), Document(text=text), glosses={normalize(surface): gloss}, abstention=shipped_abstention()
    )
    outcome = resolver.link_or_mint(surface, KBNames(default_kb).record(surface), None, "value", text)
    value = outcome.terms[0].value
    return (None if is_unlinked(value) else parse_wikidata_id(value)), resolver.decisions


def test_a_baker_who_shares_a_voice_actors_name_is_minted(default_kb):
    text = "David Kaye, who runs the Harbour Lane bakery in Whitby, has taken on two apprentices this spring."
    linked, decisions = link(default_kb, text, "David Kaye", "a baker in Whitby")
    assert linked is None
    (weighed,) = [d for d in decisions if d.get("candidate") == "Q3018199" and "support" in d]
    assert weighed["decision"] == "abstained" and weighed["wrong_chance"] > shipped_abstention().threshold


def test_a_famous_actor_glossed_as_one_stays_linked(default_kb):
    text = "Tom Hanks narrated the museum's new film about the space race."
    linked, decisions = link(default_kb, text, "Tom Hanks", "an American actor")
    assert linked == "Q2263"
    assert any(d.get("decision") == "kept" and d.get("candidate") == "Q2263" for d in decisions)


def test_the_default_linking_abstains_after_the_gloss(default_kb):
    """Through ``linking=checked`` as ``facts`` runs it: the model's gloss is one of the abstention's inputs."""
    from graphwright.linking.system import OpenWorldLinking
    from tests.linking.test_check import Found, glossing, objects

    text = "Ilse Morgen hired David Kaye, who runs the Harbour Lane bakery in Whitby, to cater the opening."
    linking = OpenWorldLinking(Found(("Ilse Morgen", "P1327", "David Kaye")), default_kb, reader=glossing("a baker"))
    out = asyncio.run(linking.run(Document(text=text)))
    assert objects(out) == {"David Kaye": None}
    assert any(d.get("decision") == "abstained" for d in out.extra["linking"])


def test_the_other_names_of_a_text():
    text = "Ruth White joined Birchgate Family Practice in Keene. She met Ruth at the Bank of Keene."
    assert other_names(text, "Ruth White") == ["Bank of Keene", "Birchgate Family Practice", "Keene", "She"]
    assert "John F. Kennedy" in other_names("Ruth White met John F. Kennedy in 1961.", "Ruth White")
    # a person in a text of names the KB lacks weighs more for minting than one among names it has
    kaye = person("Q3018199", "David Kaye", "voice actor")
    lacking = named(features("David Kaye", kaye, text, support(names_known=0.0)))
    known = named(features("David Kaye", kaye, text, support(names_known=1.0)))
    assert lacking["person_among_unknown_names"] == 1.0 and known["person_among_unknown_names"] == 0.0


class _Built:
    def __init__(self, *sources: dict, path=None):
        self.manifest = {"sources": list(sources)}
        self.path = path


def test_the_abstention_applies_to_wikidata_kbs_only(default_kb):
    assert fitted_for(default_kb)  # the shipped slice
    # built by a checkout that is gone: its directory, named by the data's digest, still says it is the slice
    moved = _Built({"kind": "entity-jsonl", "path": "gone/checkout/entities.jsonl.gz"}, path=default_kb.path)
    assert fitted_for(moved)
    assert fitted_for(_Built({"kind": "kgtk-entities", "path": "wikidata"}))
    own = _Built({"kind": "rdf-ontology", "path": "hr.ttl"}, {"kind": "entity-jsonl", "path": "people.jsonl"})
    assert not fitted_for(own)  # a user's own entities: their ids say nothing of prominence


def test_a_user_sets_the_risk_a_link_may_carry(default_kb):
    """``--set link_risk=...``: below the chance the shipped model gives Tom Hanks, he is minted too."""
    import pytest

    from graphwright.errors import UserError
    from graphwright.linking.system import OpenWorldLinking, with_linking
    from tests.linking.test_check import Found, glossing, objects

    text = "Ilse Morgen met Tom Hanks, who narrated the museum's new film about the space race."
    fact = ("Ilse Morgen", "P3342", "Tom Hanks")

    def linked(link_risk) -> str | None:
        system = with_linking(Found(fact), default_kb, "checked", True, glossing("an American actor"), link_risk)
        assert isinstance(system, OpenWorldLinking)
        return objects(asyncio.run(system.run(Document(text=text))))["Tom Hanks"]

    assert linked(None) == "Q2263" and linked("0.5") == "Q2263"
    assert linked(1e-6) is None  # nothing is that sure
    for bad in ("often", 0, 1.5):
        with pytest.raises(UserError, match="link_risk"):
            with_linking(Found(fact), default_kb, "open", True, link_risk=bad)
    with pytest.raises(UserError, match="closed"):
        with_linking(Found(fact), default_kb, "closed", True, link_risk=0.1)


def test_every_system_takes_the_link_risk_setting(default_kb):
    from graphwright.llm.fake import ScriptedLLM
    from graphwright.systems.base import make_system

    system = make_system("facts", ScriptedLLM([]), default_kb, {"link_risk": "0.05"})
    assert system.system.abstention.threshold == 0.05  # StatedOnly over OpenWorldLinking
    assert (
        make_system("cie.network", ScriptedLLM([]), default_kb, {"link_risk": 0.3}).system.abstention.threshold == 0.3
    )
