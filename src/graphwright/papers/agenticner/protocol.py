"""The agents' message protocol: XML tags inside free text (<output>, <search>, <objection>,
<feedback>, <answer>) and the literal APPROVED!."""

from __future__ import annotations

import re

APPROVED = "APPROVED!"


def tag_content(text: str, name: str) -> str | None:
    """The content of the last complete ``<name>...</name>`` (the last is the answer when a model drafts
    first), or of an unclosed final one; None if there is no such tag."""
    found = re.findall(rf"<{name}>(.*?)</{name}>", text, flags=re.DOTALL)
    if found:
        return found[-1].strip()
    opened = text.rfind(f"<{name}>")
    return text[opened + len(name) + 2 :].strip() if opened >= 0 else None


def asks_for_change(feedback: str | None) -> bool:
    """Whether a reviewer's <feedback> asks for anything: it has words besides the approval itself (a
    small model writes ``<feedback>APPROVED!</feedback>``, or copies the empty tags)."""
    if feedback is None:
        return False
    return any(ch.isalnum() for ch in re.sub(r"\bAPPROVED\b!?", "", feedback, flags=re.IGNORECASE))


def text_to_tag(text: str) -> str:
    return f"<text_to_tag>{text}</text_to_tag>\n\nOnly tag this text: <text_to_tag>{text}</text_to_tag>"


def example_block(text: str, tagged: str) -> str:
    return f"<example><text_to_tag>{text}</text_to_tag>\nYour response:\n<output>{tagged}</output></example>"
