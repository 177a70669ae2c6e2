"""Every registered system is in the catalogue `graphwright systems` prints, with a role and a purpose,
and the registered names are the ones users have been told about (a rename breaks their commands)."""

from __future__ import annotations

from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.systems.base import DEFAULT_SYSTEM, ROLES, SYSTEMS, system_catalogue, system_names

REGISTERED = [
    "agentic-kgr", "agentic-kgr.agent", "agentic-kgr.single", "agenticner", "agenticner.lean", "agenticner.paper",
    "agenticner.single", "agentre", "agentre.fewshot", "agentre.lean", "agentre.paper", "agentre.zeroshot",
    "cie.baseline", "cie.network", "cie.react", "cie.single", "cie.ssa", "cie.sssa", "cooperkgc", "cooperkgc.single",
    "cooperkgc.twostage", "cooperkgc.vote", "facts", "openie",
]


def test_the_registered_names_are_the_catalogued_ones():
    assert system_names() == REGISTERED
    assert all(callable(SYSTEMS.get(name).factory) for name in REGISTERED), "each package registers the names it is listed for"
    linking = {name for name in REGISTERED if SYSTEMS.get(name).capabilities.links_to_kb}
    assert linking == {"facts", "cie.baseline", "cie.network", "cie.react", "cie.single", "cie.ssa", "cie.sssa"}
    catalogue = system_catalogue()
    assert sorted(e.name for e in catalogue) == REGISTERED
    assert all(e.role in ROLES and e.purpose for e in catalogue)
    assert catalogue[0].name == DEFAULT_SYSTEM and catalogue[0].role == "recommended"


def test_systems_command_says_what_each_is_for_and_which_is_the_default():
    result = CliRunner().invoke(app, ["systems"], terminal_width=200)
    assert result.exit_code == 0
    assert f"{DEFAULT_SYSTEM} (default)" in result.output
    assert all(name in result.output for name in REGISTERED)
    assert "baseline" in result.output and "recommended" in result.output
