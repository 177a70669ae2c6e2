"""The Neo4j export: admin-import CSVs and a Cypher script in which labels from text stay data."""

from __future__ import annotations

import csv

from graphwright.growth import GrowthPolicy, grow, load
from graphwright.growth.neo4j import cypher_name, cypher_string, write_neo4j
from graphwright.store.property_graph import relationship_type
from tests.growth.runs import EMPLOYER, result, triple

NASTY = "O'Brien \\\"}) DETACH DELETE n //\n`x`"


def rows(path):
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_cypher_strings_and_names_escape_everything_that_could_end_them():
    assert cypher_string("a'b\"c\\d\ne") == "'a\\'b\\\"c\\\\d\\u000ae'"
    assert cypher_name("WORKS`FOR\n") == "`WORKS``FOR_`"
    assert relationship_type("employer", EMPLOYER) == "EMPLOYER"
    assert relationship_type(None, "https://x.org/schema/supplies-parts") == "SUPPLIES_PARTS"


def test_export_writes_nodes_edges_and_a_script(store, tmp_path):
    store.add_result(
        None,
        result(
            "d1", [triple(NASTY, EMPLOYER, "Kessler Werke", sentence="It's; here.", label="employer`) RETURN 1 //")]
        ),
    )
    grow(store, GrowthPolicy(embedder=None), now="2026-11-01T00:00:00+00:00")
    files = write_neo4j(load(store), tmp_path / "neo")
    nodes, [edge] = rows(tmp_path / "neo" / "nodes.csv"), rows(tmp_path / "neo" / "relationships.csv")
    assert sorted(n["name"] for n in nodes) == sorted([NASTY, "Kessler Werke"])
    assert (
        edge[":TYPE"] == "EMPLOYER_RETURN_1" and edge["votes:int"] == "1" and edge["evidence:string[]"] == "It's, here."
    )
    script = files[2].read_text(encoding="utf-8")
    assert cypher_string(NASTY) in script and "\n`x`" not in script
    statements = [line for line in script.splitlines() if not line.startswith("//")]
    assert len(statements) == 4 and all(line.endswith(";") for line in statements)
