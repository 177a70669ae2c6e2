"""The environment is read in one place: every GRAPHWRIGHT_* variable the code names is documented there,
values are read when asked for, and a bad number names its variable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import graphwright
from graphwright.environment import VARIABLES, Environment
from graphwright.errors import UserError

SRC = Path(graphwright.__file__).parent


def test_every_variable_the_code_names_is_documented():
    named = {m for path in SRC.rglob("*.py") for m in re.findall(r"GRAPHWRIGHT_[A-Z_]+", path.read_text())}
    assert named == set(VARIABLES), named ^ set(VARIABLES)


def test_values_are_read_when_asked_and_an_explicit_variable_wins_over_openais(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    assert Environment.read().base_url == "http://127.0.0.1:1/v1"
    monkeypatch.setenv("GRAPHWRIGHT_BASE_URL", "http://127.0.0.1:2/v1")
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "0")
    env = Environment.read()
    assert env.base_url == "http://127.0.0.1:2/v1" and env.retries == 0 and env.retry_delay == 1.0


@pytest.mark.parametrize(
    "name,value,message",
    [
        ("GRAPHWRIGHT_TIMEOUT", "soon", "GRAPHWRIGHT_TIMEOUT='soon' is not a number"),
        ("GRAPHWRIGHT_RETRIES", "1.5", "is not a whole number"),
        ("GRAPHWRIGHT_THREADS", "0", "GRAPHWRIGHT_THREADS must be at least 1"),
    ],
)
def test_a_bad_number_is_a_clear_error(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(UserError, match=re.escape(message)):
        Environment.read()
