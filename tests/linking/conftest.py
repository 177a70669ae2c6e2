"""A small hand-made KB: people with look-alike names, places, a given name, classes and typed properties."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphwright.kb import LocalKB
from graphwright.kb.build import build_kb
from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.linking import JudgeModel, LinkJudge
from graphwright.linking.resolve import Resolver
from graphwright.model import Document
from graphwright.systems.facts.kb_names import KBNames
from tests.kb.fakes import HashEmbedder

ENTITIES = [
    {"id": "Q5", "label": "human", "description": "any member of Homo sapiens"},
    {"id": "Q43229", "label": "organization", "description": "social entity with a collective goal"},
    {
        "id": "Q4830453",
        "label": "business",
        "description": "organization selling goods or services",
        "subclass_of": ["Q43229"],
    },
    {"id": "Q2221906", "label": "geographic location", "description": "point or area on Earth's surface"},
    {"id": "Q515", "label": "city", "description": "large human settlement", "subclass_of": ["Q2221906"]},
    {"id": "Q202444", "label": "given name", "description": "part of a personal name"},
    {"id": "Q618779", "label": "award", "description": "something given in recognition of an achievement"},
    {
        "id": "Q467464",
        "label": "Katrín Jakobsdóttir",
        "aliases": ["Katrin Jakobsdottir"],
        "description": "Prime Minister of Iceland",
        "types": ["Q5"],
    },
    {
        "id": "Q7186",
        "label": "Marie Curie",
        "aliases": ["Maria Skłodowska-Curie", "Madame Curie"],
        "description": "Polish-French physicist and chemist",
        "types": ["Q5"],
    },
    {"id": "Q40747", "label": "Pierre", "description": "male given name", "types": ["Q202444"]},
    {"id": "Q90", "label": "Paris", "description": "capital city of France", "types": ["Q515"]},
    {"id": "Q1055", "label": "Hamburg", "description": "city in Germany", "types": ["Q515"]},
    {"id": "Q177777", "label": "logistics", "description": "management of the flow of resources"},
    {"id": "Q44585", "label": "Nobel Prize in Chemistry", "description": "award in chemistry", "types": ["Q618779"]},
    {"id": "Q2075", "label": "1910", "description": "year", "types": []},
]
PROPERTIES = [
    {"id": "P26", "label": "spouse", "datatype": "wikibase-item", "subject_types": ["Q5"], "value_types": ["Q5"]},
    {"id": "P112", "label": "founded by", "datatype": "wikibase-item", "value_types": ["Q5", "Q43229"]},
    {
        "id": "P108",
        "label": "employer",
        "datatype": "wikibase-item",
        "subject_types": ["Q5"],
        "value_types": ["Q43229"],
    },
    {"id": "P159", "label": "headquarters location", "datatype": "wikibase-item", "value_types": ["Q2221906"]},
    {"id": "P166", "label": "award received", "datatype": "wikibase-item", "value_types": ["Q618779"]},
    {"id": "P569", "label": "date of birth", "datatype": "time", "subject_types": ["Q5"]},
    {"id": "P1082", "label": "population", "datatype": "quantity"},
    {"id": "P1448", "label": "official name", "datatype": "monolingualtext"},
    {"id": "P214", "label": "VIAF ID", "datatype": "external-id"},
]

#: exact names are trusted, spellings less, context a little; the threshold is what the tests reason about
TEST_MODEL = JudgeModel(weights=(-1.0, 3.0, 1.0, 1.5, 0.5, 1.0, -2.0, 1.0), threshold=0.5)


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def small_kb(tmp_path_factory) -> LocalKB:
    root = tmp_path_factory.mktemp("linking-kb")
    path = build_kb(
        root / "kb",
        properties_dir=False,
        arnold_dir=False,
        entity_files=[_jsonl(root / "entities.jsonl", ENTITIES)],
        property_files=[_jsonl(root / "properties.jsonl", PROPERTIES)],
    )
    return LocalKB(path, embedder=HashEmbedder())


@pytest.fixture
def judge(small_kb) -> LinkJudge:
    return LinkJudge(small_kb, model=TEST_MODEL)


@pytest.fixture(scope="module")
def linker(default_kb):
    """The default KB's linker on one name of a text: the QID it links, or None (minted)."""
    judge, names = LinkJudge(default_kb), KBNames(default_kb)

    def link(text: str, surface: str) -> str | None:
        outcome = Resolver(judge, Document(text=text)).link_or_mint(surface, names.record(surface), None, "value", text)
        value = outcome.terms[0].value
        return None if is_unlinked(value) else parse_wikidata_id(value)

    return link
