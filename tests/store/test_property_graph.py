"""GraphML and Neo4j CSV exports: every stored triple becomes one edge with its evidence, and labels
from text come back unchanged (escaped by the writers, not mangled)."""

from __future__ import annotations

import csv
import io
import zipfile

import networkx as nx
import pytest

from graphwright.errors import UserError
from graphwright.kb.namespaces import WD, WDT
from graphwright.store import export_graph, serialize_graph
from graphwright.store.export import resolve_format

from .conftest import EVIL, make_result


def test_graphml_holds_each_triple_with_its_evidence(filled):
    graph = nx.read_graphml(io.BytesIO(serialize_graph(filled, "graphml")), force_multigraph=True)
    assert graph.number_of_edges() == 3  # place of birth, date of death, nickname
    born = [d for s, o, d in graph.edges(data=True) if d["iri"] == WDT + "P19"]
    assert born and born[0]["evidence"] == "Marie Curie wurde in Warschau geboren."
    assert born[0]["confidence"] == pytest.approx(0.875)
    assert graph.nodes[WD + "Q7186"]["label"] == "Marie Curie"


def test_graphml_keeps_a_hostile_label_as_data(store, document):
    store.add_result(document, make_result(document, label=EVIL))
    data = serialize_graph(store, "graphml")
    assert b"<script>" not in data
    graph = nx.read_graphml(io.BytesIO(data), force_multigraph=True)
    # XML 1.0 cannot hold most control characters, and \n in an attribute value is read back as a space
    assert graph.nodes[WD + "Q7186"]["label"].startswith('Evil"> </script><script>alert(1)</script>')


def test_neo4j_zip_has_admin_import_headers_and_quoted_fields(store, document, tmp_path):
    store.add_result(document, make_result(document, label='Curie, "Marie"; née Skłodowska'))
    export_graph(store, tmp_path / "graph.zip")
    with zipfile.ZipFile(tmp_path / "graph.zip") as archive:
        nodes = list(csv.reader(io.StringIO(archive.read("nodes.csv").decode())))
        edges = list(csv.reader(io.StringIO(archive.read("relationships.csv").decode())))
    assert nodes[0][0] == "id:ID" and edges[0][:3] == [":START_ID", ":END_ID", ":TYPE"]
    curie = next(row for row in nodes[1:] if row[0] == WD + "Q7186")
    assert curie[1] == 'Curie, "Marie"; née Skłodowska' and curie[-1] == "Entity"
    types = {row[2] for row in edges[1:]}
    assert "PLACE_OF_BIRTH" in types and len(edges) == 4


def test_property_formats_are_chosen_by_extension_and_refused_for_the_grown_graph(filled):
    assert resolve_format(None, "out/g.graphml") == "graphml" and resolve_format(None, "g.zip") == "neo4j"
    with pytest.raises(UserError, match="graph neo4j"):
        serialize_graph(filled, "neo4j", grown=True)
