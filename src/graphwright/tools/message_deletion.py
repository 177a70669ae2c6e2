"""Message deletion (CIExMAS section 4.2.5): the ReAct agent prunes its own history.

Messages carry ids the agent sees; it may delete tool answers it no longer needs, and
leave a short summary in their place, so that long searches do not overflow the context.
The task message (id 0) and the most recent message cannot be deleted: without them the
agent would lose the text or the answer it is reacting to.
"""

from __future__ import annotations

from typing import Any

from graphwright.errors import ModelOutputError


def delete_messages(
    messages: list[dict[str, Any]], ids: list[int], summary: str = ""
) -> tuple[list[dict[str, Any]], str]:
    """Return the remaining messages (plus the summary as a new message) and a confirmation."""
    if not ids:
        raise ModelOutputError("delete_messages needs the ids of the messages to delete")
    present = {m["id"] for m in messages}
    protected = {0, messages[-1]["id"]} if messages else {0}
    unknown = sorted(set(ids) - present)
    if unknown:
        raise ModelOutputError(f"no messages with ids {unknown}; existing ids: {sorted(present)}")
    blocked = sorted(set(ids) & protected)
    if blocked:
        raise ModelOutputError(f"messages {blocked} cannot be deleted (the task and the latest message stay)")
    kept = [m for m in messages if m["id"] not in set(ids)]
    note = f"deleted messages {sorted(set(ids))}"
    if summary.strip():
        kept.append({"id": max(present) + 1, "author": "summary", "content": summary.strip()})
        note += " and kept your summary"
    return kept, note
