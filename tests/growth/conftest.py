import pytest

from graphwright.store import GraphStore


@pytest.fixture
def store():
    with GraphStore.in_memory() as s:
        yield s
