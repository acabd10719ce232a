"""The conformance kit's checks fail on planted faults (they are what every family's tests rely on)."""

from __future__ import annotations

import dataclasses
import sys
import types

import pytest

from rocke.families.configs import ConfigLine
from rocke.families.elementwise.family import FAMILY
from rocke.gates import conformance as kit
from rocke.ir import print_kernel

BUILT = "block=256 dtype=f16 op=add vec=8"
REFUSED = "block=96 dtype=f16 op=add vec=8"  # refused on wave64 archs
PROBLEM = {"n": 1000}


def test_with_changes_keeps_keys_sorted_and_refuses_unknown_keys() -> None:
    assert kit.with_changes(BUILT, vec=4, op="mul") == "block=256 dtype=f16 op=mul vec=4"
    assert kit.with_changes("a=0 b=1", a=True) == "a=1 b=1"
    with pytest.raises(AssertionError, match="'lanes' is not a key"):
        kit.with_changes(BUILT, lanes=4)


def test_config_line_check_fails_when_the_line_says_otherwise() -> None:
    kit.check_config_line(FAMILY, ConfigLine(1, "gfx942", BUILT, refuse=False), PROBLEM)
    kit.check_config_line(FAMILY, ConfigLine(2, "gfx942", REFUSED, refuse=True), PROBLEM)
    with pytest.raises(AssertionError, match=r"elementwise\.cfg line 3: refused: elementwise: block=96"):
        kit.check_config_line(FAMILY, ConfigLine(3, "gfx942", REFUSED, refuse=False), PROBLEM)
    with pytest.raises(AssertionError, match=r"elementwise\.cfg line 4: rocke\.ir/1"):
        kit.check_config_line(FAMILY, ConfigLine(4, "gfx1100", REFUSED, refuse=True), PROBLEM)


def test_config_line_check_fails_on_a_contract_that_does_not_match_the_kernel() -> None:
    def launch(spec, problem):
        contract = FAMILY.launch(spec, problem)  # type: ignore[misc]
        return dataclasses.replace(contract, args=contract.args[1:])

    family = dataclasses.replace(FAMILY, launch=launch)
    with pytest.raises(AssertionError):
        kit.check_config_line(family, ConfigLine(1, "gfx942", BUILT, False), PROBLEM)


def test_refusal_checks_fail_on_another_text_or_no_refusal() -> None:
    kit.check_spec_refusal(FAMILY.spec, kit.with_changes(BUILT, vec=3), "elementwise: vec=3: must be 1, 2, 4 or 8")
    with pytest.raises(AssertionError, match="want: elementwise: vec=3: must be 1, 2 or 4"):
        kit.check_spec_refusal(FAMILY.spec, kit.with_changes(BUILT, vec=3), "elementwise: vec=3: must be 1, 2 or 4")
    with pytest.raises(AssertionError, match="not refused"):
        kit.check_spec_refusal(FAMILY.spec, BUILT, "elementwise: anything")
    with pytest.raises(AssertionError, match="not refused"):
        kit.check_arch_refusal(FAMILY, REFUSED, "gfx1100", "elementwise: block=96: anything")


def test_same_names_the_first_differing_line_of_the_cpp_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    def build_family(name: str, kv: str, arch: str) -> str:
        text = print_kernel(FAMILY.build(FAMILY.spec.from_kv(kv), arch))  # type: ignore[misc, union-attr]
        return text.replace("block", "blocks", 1) if "block" in text else text + "\n"

    fake = types.SimpleNamespace(family_names=lambda: ["elementwise"], build_family=build_family)
    monkeypatch.setitem(sys.modules, "fake_engine", fake)
    family = dataclasses.replace(FAMILY, cpp_engine="fake_engine")
    with pytest.raises(AssertionError, match=r"gfx942 block=256 .*: first difference at line \d+"):
        kit.same(family, BUILT, "gfx942")
    assert kit.same(family, REFUSED, "gfx942")[0] == "ValueError"  # both refuse with the same text
    monkeypatch.setitem(sys.modules, "fake_engine", types.SimpleNamespace(family_names=lambda: []))
    with pytest.raises(AssertionError, match="the installed fake_engine has no C\\+\\+ elementwise builder"):
        kit.cpp_engine(family)
