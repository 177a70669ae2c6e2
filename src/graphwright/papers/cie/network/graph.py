"""Wiring of the network architecture: three agents, three tools, a finish check.

Every agent may route to every other agent (the network pattern); tools
return to the agent that called them. With ``lean`` the system itself runs the
searches after the extractor and both checks (``check_tools``) after the URI
agent's hand-over, the tool calls strict routing would force next.
"""

from __future__ import annotations

from langgraph.graph import START, StateGraph

from graphwright.papers.cie.common.turn import CieContext
from graphwright.papers.cie.network import nodes
from graphwright.papers.cie.network.outputs import (
    CHECK_TOOLS,
    EXTRACTOR,
    FINISH,
    LABEL_TOOL,
    SEMANTIC_TOOL,
    URI_MAPPING,
    URI_TOOL,
    VALIDATION,
)
from graphwright.papers.cie.network.state import NetworkState

AGENTS = (EXTRACTOR, URI_MAPPING, VALIDATION)
ROUTES = {
    EXTRACTOR: (URI_MAPPING, VALIDATION, FINISH, EXTRACTOR, URI_TOOL),
    URI_MAPPING: (URI_TOOL, VALIDATION, EXTRACTOR, URI_MAPPING, FINISH, CHECK_TOOLS),
    VALIDATION: (SEMANTIC_TOOL, LABEL_TOOL, EXTRACTOR, URI_MAPPING, FINISH, VALIDATION),
    URI_TOOL: AGENTS,
    LABEL_TOOL: AGENTS,
    SEMANTIC_TOOL: AGENTS,
    CHECK_TOOLS: (VALIDATION, FINISH),
    FINISH: (VALIDATION, "__end__"),
}


def build_graph():
    graph = StateGraph(NetworkState, context_schema=CieContext)
    graph.add_node(EXTRACTOR, nodes.extractor, destinations=ROUTES[EXTRACTOR])
    graph.add_node(URI_MAPPING, nodes.uri_mapping_and_refinement, destinations=ROUTES[URI_MAPPING])
    graph.add_node(VALIDATION, nodes.validation_and_output, destinations=ROUTES[VALIDATION])
    graph.add_node(URI_TOOL, nodes.uri_retrieval_tool, destinations=ROUTES[URI_TOOL])
    graph.add_node(LABEL_TOOL, nodes.turtle_to_label_tool, destinations=ROUTES[LABEL_TOOL])
    graph.add_node(SEMANTIC_TOOL, nodes.semantic_validation_tool, destinations=ROUTES[SEMANTIC_TOOL])
    graph.add_node(CHECK_TOOLS, nodes.check_tools, destinations=ROUTES[CHECK_TOOLS])
    graph.add_node(FINISH, nodes.finish, destinations=ROUTES[FINISH])
    graph.add_edge(START, EXTRACTOR)
    return graph.compile()
