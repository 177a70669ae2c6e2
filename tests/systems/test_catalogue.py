"""Every registered system is in the catalogue `graphwright systems` prints, with a role and a purpose,
and the registered names are the ones users have been told about (a rename breaks their commands)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.errors import UserError
from graphwright.llm.base import LLM
from graphwright.systems.base import DEFAULT_SYSTEM, ROLES, SYSTEMS, make_system, system_catalogue, system_names
from tests.support.agentre_script import write_inputs

REGISTERED = [
    "agentic-kgr",
    "agentic-kgr.agent",
    "agentic-kgr.single",
    "agenticner",
    "agenticner.lean",
    "agenticner.paper",
    "agenticner.single",
    "agentre",
    "agentre.fewshot",
    "agentre.lean",
    "agentre.paper",
    "agentre.zeroshot",
    "cie.baseline",
    "cie.network",
    "cie.react",
    "cie.single",
    "cie.ssa",
    "cie.sssa",
    "cooperkgc",
    "cooperkgc.single",
    "cooperkgc.twostage",
    "cooperkgc.vote",
    "facts",
    "openie",
]


def test_the_registered_names_are_the_catalogued_ones():
    assert system_names() == REGISTERED
    assert all(callable(SYSTEMS.get(name).factory) for name in REGISTERED), (
        "each package registers the names it is listed for"
    )
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


def test_variants_are_presets_of_their_family_and_say_what_they_fix():
    entries = {e.name: e for e in system_catalogue()}
    assert entries["agentre.fewshot"].family == "agentre"
    assert entries["agentre.fewshot"].relation() == "agentre with mode=direct, tools=guidelines,samples"
    assert entries["agenticner.single"].relation() == "agenticner with single=true"
    assert entries["cie.react"].relation() == "an architecture of cie"
    assert entries["agentre"].relation() == "" and entries["facts"].relation() == ""
    families = {e.family for e in entries.values()}
    assert families == {"agentic-kgr", "agenticner", "agentre", "cie", "cooperkgc", "facts", "openie"}


def test_a_preset_keeps_what_it_fixes_and_takes_the_rest(tmp_path):
    schema, pool = write_inputs(tmp_path)
    files = {"schema_file": str(schema), "pool_file": str(pool)}
    with pytest.raises(UserError, match="agentre.fewshot fixes mode"):
        make_system("agentre.fewshot", NeverAsked(), None, {**files, "mode": "react"})
    system = make_system("agentre.fewshot", NeverAsked(), None, {**files, "k": 2})
    while not hasattr(system, "config"):  # under the linking and stated-only wrappers
        system = system.system
    assert (system.name, system.config.mode, system.config.tools, system.config.k) == (
        "agentre.fewshot",
        "direct",
        ["guidelines", "samples"],
        2,
    )


class NeverAsked(LLM):
    name = "never-asked"

    async def chat(self, messages, **kwargs):
        raise AssertionError("building a system asks the model nothing")


def test_a_package_of_its_own_adds_systems_through_the_entry_point(monkeypatch):
    import sys
    from importlib.metadata import EntryPoint

    from graphwright.systems import base

    installed = base._entry_points()
    toy = EntryPoint(name="toy", value="tests.support.toy_system", group=base.ENTRY_POINTS)
    monkeypatch.setattr(base, "_entry_points", lambda: {**installed, "toy": toy})
    monkeypatch.setattr(base, "SYSTEMS", base.SystemRegistry())  # the real registry keeps its names
    monkeypatch.delitem(sys.modules, "tests.support.toy_system", raising=False)
    assert "toy.echo" not in base.SYSTEMS._items  # nothing imported until the name is asked for
    entry = {e.name: e for e in base.system_catalogue()}["toy.echo"]
    assert (entry.role, entry.family) == ("variant", "toy") and "plug-in" in entry.purpose
