"""Safe building blocks for SPARQL text: values are escaped or validated, never spliced raw.

Prefer pyoxigraph's ``substitutions`` (bound terms, no text at all); use these where a query
must be written out as text, e.g. for a remote endpoint.
"""

from __future__ import annotations

import re

import pyoxigraph as ox

from graphwright.errors import UserError

_LANGTAG = re.compile(r"[A-Za-z]+(-[A-Za-z0-9]+)*")

# SPARQL 1.1 ECHAR escapes; every other character may stand in a double-quoted string.
_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "'": "\\'",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def escape_sparql_string(value: str) -> str:
    """The body of a SPARQL string literal for ``value`` (without the quotes).

    >>> escape_sparql_string('say "hi"\\n')
    'say \\\\"hi\\\\"\\\\n'
    """
    return "".join(_ESCAPES.get(ch, ch) for ch in value)


def sparql_literal(value: str, datatype: str | None = None, language: str | None = None) -> str:
    """A complete SPARQL literal: ``"..."``, ``"..."@en`` or ``"..."^^<datatype>``."""
    text = f'"{escape_sparql_string(value)}"'
    if language is not None:
        # The grammar's LANGTAG (letters, then hyphenated letters or digits) keeps anything that could
        # end the literal out; the parser also wants a well-formed BCP47 tag ("@0", "@x" are errors).
        try:
            if not _LANGTAG.fullmatch(language):
                raise ValueError("not letters, digits and hyphens")
            ox.Literal(value, language=language)
        except ValueError as exc:
            raise UserError(f"invalid language tag {language!r} ({exc})") from exc
        return f"{text}@{language}"
    if datatype is not None:
        return f"{text}^^{sparql_iri(datatype)}"
    return text


def sparql_iri(iri: str) -> str:
    """``<iri>`` after checking it is an absolute IRI (so ``>`` or spaces cannot end it early)."""
    try:
        node = ox.NamedNode(iri)
    except ValueError as exc:
        raise UserError(f"not an absolute IRI: {iri!r} ({exc})") from exc
    # The IRI grammar forbids <>"{}|^`\ and spaces, so the validated value is safe between <>.
    return f"<{node.value}>"
