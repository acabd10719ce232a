"""Both conv families' config files: small, and each refusal line fails a different rule."""

from __future__ import annotations

import pytest

from rocke.arch import ARCH_NAMES
from rocke.families.configs import family_configs
from rocke.families.registry import Family
from rocke.gates import conformance as kit
from rocke_library.families import defined

CONV = [family for family in defined() if family.package.startswith("rocke_library.kernels.conv.")]


@pytest.mark.parametrize("family", CONV, ids=lambda family: family.name)
def test_refusal_configs_cover_every_rule_once(family: Family) -> None:
    """Each refusal line fails a different rule (the rule text with the values taken out)."""
    rules = []
    for line in family_configs(family):
        if line.refuse:
            text = kit.build_text(family, line.kv, line.arch)
            rules.append(text.split(": ", 3)[2].split("=")[0] + ":" + "".join(
                ch for ch in text.split(": ", 3)[3] if not ch.isdigit()))
    assert len(rules) == len(set(rules)), rules


LINES_PER_ARCH = 10  # built and refused lines a family may spend per arch (40 for the four AMD archs)


@pytest.mark.parametrize("family", CONV, ids=lambda family: family.name)
def test_config_files_are_small(family: Family) -> None:
    assert 20 <= len(family_configs(family)) <= LINES_PER_ARCH * len(ARCH_NAMES)
