"""Graph stores and their outputs: the embedded RDF store, exports and the HTML view."""

from graphwright.sparql import escape_sparql_string, sparql_iri, sparql_literal
from graphwright.store.export import export_graph, serialize_graph
from graphwright.store.html_view import render_html, write_html
from graphwright.store.rdf_store import GraphStore
from graphwright.store.vocab import GW

__all__ = [
    "GW",
    "GraphStore",
    "escape_sparql_string",
    "export_graph",
    "render_html",
    "serialize_graph",
    "sparql_iri",
    "sparql_literal",
    "write_html",
]
