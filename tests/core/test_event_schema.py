"""Event schemas as users write them, and the IRIs their types and roles get."""

from __future__ import annotations

import pytest

from graphwright.errors import UserError
from graphwright.model.events import event_iri, load_event_schema


def test_a_mapping_of_event_types_loads_with_roles_and_iris(tmp_path):
    path = tmp_path / "deals.yaml"
    path.write_text(
        "name: company news\nevents:\n  Acquisition: {description: one company buys another, roles: [Buyer, Acquired]}\n"
        "  vote.n/a: {roles: []}\n"
    )
    schema = load_event_schema(path)
    assert schema.names == ["Acquisition", "vote.n/a"]
    assert schema.get("Acquisition").guideline() == "Acquisition (roles: Buyer, Acquired): one company buys another"
    assert schema.type_iri("vote.n/a") == "https://graphwright.dev/schema/company%20news/event/vote.n%2Fa"
    assert schema.role_iri("Buyer") == "https://graphwright.dev/schema/company%20news/role/Buyer"
    assert event_iri("doc:1", "cooperkgc", 2) == "urn:graphwright:event:doc%3A1:cooperkgc:2"


@pytest.mark.parametrize(
    "body, message",
    [
        ("events: []\n", "at least one event type"),
        ("events:\n  - {name: A}\n  - {name: A}\n", "event types named twice: A"),
        ("- a list\n", "event schema is a mapping"),
    ],
)
def test_a_bad_event_schema_is_a_clear_error(tmp_path, body, message):
    path = tmp_path / "bad.yaml"
    path.write_text(body)
    with pytest.raises(UserError, match=message):
        load_event_schema(path)
