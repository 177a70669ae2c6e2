"""The grown graph without one document: what only it supported goes, what others support stays."""

from __future__ import annotations

from dataclasses import dataclass

from graphwright.growth.state import GrowthState


@dataclass
class Forgotten:
    edges: int = 0  # edges removed: the document was their only support
    votes: int = 0  # edges that lost the document's vote and evidence and stay
    nodes: int = 0  # nodes removed: no document mentions them and no edge touches them


def forget_document(state: GrowthState, document_id: str) -> Forgotten:
    """Remove ``document_id`` from ``state``: its votes and evidence on every edge, the edges it alone
    supported, its mentions of nodes and the nodes left with none, and its merged runs (so a new run
    of the document is folded in again)."""
    out = Forgotten()
    for key, edge in list(state.edges.items()):
        if document_id not in edge.sources and all(e.document_id != document_id for e in edge.evidence):
            continue
        edge.sources.discard(document_id)
        edge.evidence = [e for e in edge.evidence if e.document_id != document_id]
        if edge.sources:
            out.votes += 1
        else:
            del state.edges[key]
            out.edges += 1
    touched = {end for edge in state.edges.values() for end in (edge.subject, edge.object.value)}
    for iri, node in list(state.nodes.items()):
        node.sources.discard(document_id)
        if not node.sources and iri not in touched:
            del state.nodes[iri]
            out.nodes += 1
    for run in [run for run in state.merged_runs if run[0] == document_id]:
        del state.merged_runs[run]
    for sources in state.type_sources.values():
        sources.discard(document_id)
    return out
