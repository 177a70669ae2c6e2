"""The grown graph for Neo4j: CSV files for ``neo4j-admin database import`` and a Cypher script.

Neo4j cannot be installed offline here, so graphwright writes what a Neo4j user loads. Every label and
name from text is data: the CSV writer quotes it, and the Cypher script writes it as an escaped string
literal, or, for the labels and relationship types Cypher takes as identifiers, inside escaped backticks.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from graphwright.growth.state import GrowthState
from graphwright.store.property_graph import relationship_type

_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")


def cypher_string(text: str) -> str:
    """``text`` as a Cypher string literal: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in "\\'\"":
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def cypher_name(text: str) -> str:
    """``text`` as a Cypher identifier (a label or relationship type): backticked, backticks doubled."""
    return "`" + _UNSAFE.sub("_", text).replace("`", "``") + "`"


def write_neo4j(state: GrowthState, folder: Path) -> list[Path]:
    """Write nodes.csv, relationships.csv (admin import headers) and import.cypher into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    nodes_file, edges_file, script = folder / "nodes.csv", folder / "relationships.csv", folder / "import.cypher"
    nodes = sorted(state.nodes.values(), key=lambda n: n.iri)
    edges = sorted(
        (
            e
            for e in state.promoted()
            if e.object.kind == "iri" and e.object.value in state.nodes and e.subject in state.nodes
        ),
        key=lambda e: (e.subject, e.predicate, e.object.value),
    )
    with nodes_file.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id:ID", "name", "linked:boolean", "types:string[]", "aliases:string[]", "last_seen", ":LABEL"])
        for n in nodes:
            w.writerow(
                [
                    n.iri,
                    n.label,
                    str(n.linked).lower(),
                    ";".join(sorted(n.types)),
                    ";".join(sorted(a.replace(";", ",") for a in n.aliases)),
                    n.last_seen,
                    "Entity",
                ]
            )
    with edges_file.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [":START_ID", ":END_ID", ":TYPE", "iri", "confidence:double", "votes:int", "evidence:string[]", "last_seen"]
        )
        for e in edges:
            w.writerow(
                [
                    e.subject,
                    e.object.value,
                    relationship_type(e.predicate_label, e.predicate),
                    e.predicate,
                    f"{e.confidence:.4f}",
                    e.votes,
                    ";".join(ev.text.replace(";", ",") for ev in e.evidence),
                    e.last_seen,
                ]
            )
    lines = [
        "// graphwright grown graph; run with: cypher-shell -f import.cypher",
        "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;",
    ]
    for n in nodes:
        lines.append(
            f"MERGE (n:Entity {{id: {cypher_string(n.iri)}}}) SET n.name = {cypher_string(n.label)}, "
            f"n.linked = {str(n.linked).lower()}, n.last_seen = {cypher_string(n.last_seen)};"
        )
    literal_values = [e for e in state.promoted() if e.object.kind == "literal" and e.subject in state.nodes]
    for e in edges:
        lines.append(
            f"MATCH (s:Entity {{id: {cypher_string(e.subject)}}}), (o:Entity {{id: {cypher_string(e.object.value)}}}) "
            f"MERGE (s)-[r:{cypher_name(relationship_type(e.predicate_label, e.predicate))} "
            f"{{iri: {cypher_string(e.predicate)}}}]->(o) SET r.confidence = {e.confidence:.4f}, r.votes = {e.votes}, "
            f"r.evidence = [{', '.join(cypher_string(ev.text) for ev in e.evidence)}];"
        )
    for e in sorted(literal_values, key=lambda e: (e.subject, e.predicate, e.object.value)):
        lines.append(
            f"MATCH (s:Entity {{id: {cypher_string(e.subject)}}}) SET s.{cypher_name(relationship_type(e.predicate_label, e.predicate).lower())} "
            f"= {cypher_string(e.object.value)};"
        )
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [nodes_file, edges_file, script]
