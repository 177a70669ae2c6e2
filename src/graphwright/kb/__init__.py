"""Knowledge bases: records, search and hierarchy look-ups over a local KB or live Wikidata.

Quick start::

    from graphwright.kb import open_kb
    kb = open_kb("default")            # embedded Wikidata slice, built on first use
    kb.search("Arnold Schwarzeneger", kind="entity")
    kb.search("Angela Merkel is a member of the CDU", kind="property")
    kb.super_properties("P102")        # [member of (P463)]
"""

# registers "minilm-static" (distilled from MiniLM) in EMBEDDERS; every kb module import runs this file first
from graphwright.kb import static_embedder  # noqa: F401
from graphwright.kb.build import build_kb, build_rebel_kb
from graphwright.kb.default import KBS, default_kb, open_kb, rebel_kb
from graphwright.kb.embeddings import EMBEDDERS, Embedder, MiniLMOnnxEmbedder, get_embedder
from graphwright.kb.local import LocalKB
from graphwright.kb.records import KBHit, KBRecord
from graphwright.kb.wikidata import KBUnavailableError, WikidataKB

__all__ = [
    "EMBEDDERS",
    "KBS",
    "Embedder",
    "KBHit",
    "KBRecord",
    "KBUnavailableError",
    "LocalKB",
    "MiniLMOnnxEmbedder",
    "WikidataKB",
    "build_kb",
    "build_rebel_kb",
    "default_kb",
    "get_embedder",
    "open_kb",
    "rebel_kb",
]
