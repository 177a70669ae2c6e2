"""The RDF layout of the store: graph names, node IRIs and the ``gw:`` vocabulary.

Every (document, system) pair owns two named graphs, so two systems run on the same
document never overwrite each other and one re-run replaces exactly its own output:

* ``urn:graphwright:doc:<doc>:<system>``  the extracted triples and event nodes plus ``rdfs:label``s (the plain KG)
* ``urn:graphwright:prov:<doc>:<system>`` the run record, reified statements, entity and event records

An event is a node of the KG (``a gw:Event, <type>``, ``gw:trigger``, one ``<role> <entity>`` edge per
argument); its record in the provenance graph keeps what the KG cannot: order, spans, surfaces, evidence.

``<doc>`` and ``<system>`` are percent-encoded with no safe characters, so ``:`` inside an id
cannot be confused with the separator and any text becomes a valid IRI.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from graphwright.kb.namespaces import RDFS_LABEL, UNLINKED, WD, WDT
from graphwright.kb.namespaces import UNLINKED_RELATION as UNLINKED_RELATION_NS

GW = "https://graphwright.dev/ns#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
OWL = "http://www.w3.org/2002/07/owl#"
SCHEMA = "http://schema.org/"

# Prefixes written into Turtle/TriG exports and accepted as shorthand in stored IRIs.
PREFIXES: dict[str, str] = {
    "wd": WD,
    "wdt": WDT,
    "rdf": RDF,
    "rdfs": RDFS,
    "xsd": XSD,
    "owl": OWL,
    "schema": SCHEMA,
    "gw": GW,
    "gwe": UNLINKED,
    "gwr": UNLINKED_RELATION_NS,
}

RDF_TYPE = RDF + "type"
RDF_STATEMENT = RDF + "Statement"
RDF_SUBJECT = RDF + "subject"
RDF_PREDICATE = RDF + "predicate"
RDF_OBJECT = RDF + "object"
LABEL = RDFS_LABEL
XSD_STRING = XSD + "string"
XSD_INTEGER = XSD + "integer"
XSD_DOUBLE = XSD + "double"
XSD_DATETIME = XSD + "dateTime"

# Classes.
DOCUMENT_RUN = GW + "DocumentRun"
ENTITY_RECORD = GW + "EntityRecord"
MENTION = GW + "Mention"
UNLINKED_ENTITY = GW + "UnlinkedEntity"  # a node the text names and the KB lacks
UNLINKED_RELATION = GW + "UnlinkedRelation"  # a relation kept under the text's phrase: no KB property fits
EVENT = GW + "Event"  # every event node, beside its event-type class
EVENT_RECORD = GW + "EventRecord"
EVENT_ARGUMENT = GW + "EventArgument"

# Event nodes in the KG graph: the words that say the event happened.
TRIGGER = GW + "trigger"

# Run record (one per document and system).
DOCUMENT_ID = GW + "documentId"
SOURCE = GW + "source"
STATUS = GW + "status"
REASON = GW + "reason"
SYSTEM = GW + "system"
LLM_CALLS = GW + "llmCalls"
PROMPT_TOKENS = GW + "promptTokens"
COMPLETION_TOKENS = GW + "completionTokens"
CACHED_CALLS = GW + "cachedCalls"
SECONDS = GW + "seconds"
RECORDED_AT = GW + "recordedAt"
TRIPLE_COUNT = GW + "tripleCount"
ENTITY_COUNT = GW + "entityCount"
EVENT_COUNT = GW + "eventCount"
WARNING = GW + "warning"
DOCUMENT_TEXT = GW + "text"
DOCUMENT_METADATA = (
    GW + "documentMetadata"
)  # beside the text: what its conversion kept (a PDF's pages), JSON  # the document's text, in its own graph (what the passages of `ask` read)

# Reified statements: gw:run links back to the record; gw:index keeps the result's order.
RUN = GW + "run"
INDEX = GW + "index"
EVIDENCE_TEXT = GW + "evidenceText"
EVIDENCE_START = GW + "evidenceStart"
EVIDENCE_END = GW + "evidenceEnd"
EVIDENCE_PAGE = GW + "evidencePage"  # the page of a converted PDF the evidence is on
AGENT = GW + "agent"
MODEL = GW + "model"
PROMPT_VERSION = GW + "promptVersion"
CONFIDENCE = GW + "confidence"
SUBJECT_SURFACE = GW + "subjectSurface"
PREDICATE_SURFACE = GW + "predicateSurface"
OBJECT_SURFACE = GW + "objectSurface"
OBJECT_UNIT = GW + "objectUnit"  # a quantity's unit as written; the KG graph's literal is the bare number
# The label each term carried in the result; the KG graph holds the same as rdfs:label, but an
# IRI can carry two different labels in one result, and the round trip must keep each.
SUBJECT_LABEL = GW + "subjectLabel"
PREDICATE_LABEL = GW + "predicateLabel"
OBJECT_LABEL = GW + "objectLabel"

# Entity records and their mentions.
ENTITY = GW + "entity"
ENTITY_LABEL = GW + "label"
ENTITY_TYPE = GW + "type"
HAS_MENTION = GW + "mention"
SURFACE = GW + "surface"
SPAN_START = GW + "start"
SPAN_END = GW + "end"
SPAN_TEXT = GW + "spanText"

# Event records: the trigger is the event's mention (gw:surface and the gw:start/gw:end/gw:spanText of
# its span), provenance as for statements; each argument is a record of its own, in order.
EVENT_NODE = GW + "event"
EVENT_TYPE = GW + "type"  # the property an entity record's types use
HAS_ARGUMENT = GW + "argument"
ROLE = GW + "role"

_URN = "urn:graphwright:"
DOC_GRAPH_PREFIX = _URN + "doc:"
PROV_GRAPH_PREFIX = _URN + "prov:"
TEXT_GRAPH_PREFIX = _URN + "text:"  # one per document, shared by the systems that read it
# Every document's KG merged, each triple once: the default graph of queries (a triple two documents
# state is one row, as in an RDF merge), kept in step with the KG graphs by every write.
MERGED_KG_GRAPH = _URN + "kg"
# The graph grown over documents (graphwright.growth): the plain KG, and its records.
GROWN_PREFIX = _URN + "grown:"
GROWN_KG_GRAPH = GROWN_PREFIX + "kg"
GROWN_STATE_GRAPH = GROWN_PREFIX + "state"


def _key(document_id: str, system: str) -> str:
    return f"{quote(document_id, safe='')}:{quote(system, safe='')}"


def doc_graph(document_id: str, system: str) -> str:
    return DOC_GRAPH_PREFIX + _key(document_id, system)


def prov_graph(document_id: str, system: str) -> str:
    return PROV_GRAPH_PREFIX + _key(document_id, system)


def text_graph(document_id: str) -> str:
    return TEXT_GRAPH_PREFIX + quote(document_id, safe="")


def document_iri(document_id: str) -> str:
    return f"{_URN}document:{quote(document_id, safe='')}"


def run_iri(document_id: str, system: str) -> str:
    return f"{_URN}run:{_key(document_id, system)}"


def statement_iri(document_id: str, system: str, index: int) -> str:
    return f"{_URN}stmt:{_key(document_id, system)}:{index}"


def entity_record_iri(document_id: str, system: str, index: int) -> str:
    return f"{_URN}entity:{_key(document_id, system)}:{index}"


def mention_iri(document_id: str, system: str, entity_index: int, index: int) -> str:
    return f"{_URN}mention:{_key(document_id, system)}:{entity_index}:{index}"


# Not "event:": that is where the model mints the event nodes themselves (model.events.event_iri).
def event_record_iri(document_id: str, system: str, index: int) -> str:
    return f"{_URN}eventrecord:{_key(document_id, system)}:{index}"


def argument_iri(document_id: str, system: str, event_index: int, index: int) -> str:
    return f"{_URN}argument:{_key(document_id, system)}:{event_index}:{index}"


def parse_graph(iri: str) -> tuple[str, str, str] | None:
    """``(kind, document_id, system)`` for a graph this store wrote, kind ``doc`` or ``prov``; else None."""
    for kind, prefix in (("doc", DOC_GRAPH_PREFIX), ("prov", PROV_GRAPH_PREFIX)):
        if iri.startswith(prefix):
            parts = iri[len(prefix) :].split(":")
            if len(parts) == 2:
                return kind, unquote(parts[0]), unquote(parts[1])
    return None


def expand(value: str) -> str:
    """``wd:Q42`` -> the full IRI for the known prefixes; anything else unchanged."""
    prefix, sep, local = value.partition(":")
    if sep and prefix in PREFIXES and not local.startswith("//"):
        return PREFIXES[prefix] + local
    return value
