"""Normalise and check the URI agent's mapping against the KB."""

from __future__ import annotations

import re
from typing import Any

from graphwright.kb.namespaces import is_wikidata_id, local_id
from graphwright.systems.cie.network.outputs import Mapping

_ID_IN = re.compile(r"\b([PQ][1-9][0-9]*)\b")


def short_iri(ident: str) -> str:
    """``Q42`` -> ``wd:Q42``, ``P31`` -> ``wdt:P31``: the form used in the Turtle."""
    return ("wdt:" if ident.startswith("P") else "wd:") + ident


def normalise_id(raw: str) -> str | None:
    """Accept ``wd:Q42``, ``Q42``, full IRIs and ``<...>``; return the bare id or None."""
    value = local_id(raw.strip().strip("<>"))
    if is_wikidata_id(value):
        return value
    m = _ID_IN.search(raw)
    return m.group(1) if m else None


def merge_mapping(kb, old: list[dict[str, Any]], new: list[Mapping]) -> tuple[list[dict[str, Any]], list[str]]:
    """New entries replace old ones for the same surface form; problems name unknown IRIs."""
    merged = {m["surface"].casefold(): m for m in old}
    problems = []
    for m in new:
        ident = normalise_id(m.iri)
        record = kb.get(ident) if ident else None
        if record is None:
            problems.append(f"IRI {m.iri!r} for {m.surface!r} is not in the knowledge base")
            continue
        merged[m.surface.casefold()] = {"surface": m.surface, "iri": short_iri(ident), "label": record.label,
                                       "description": record.description}
    return list(merged.values()), problems
