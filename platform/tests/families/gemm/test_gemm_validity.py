"""Every built gemm config, lowered for the running LLVM's flavor, compiles with real LLVM (in child
processes) into a shippable kernel (rocke.isa.shippable) whose occupancy is the one its kernel
descriptor's reserved registers allow. Runs in both LLVM lanes, each with its own flavor.

The last test pins the LLVM behaviour platform/docs/toolchain.md describes: LLVM 22 reserves more
registers than it counts for many gemm configs, LLVM 20 reserves what it counts."""

from __future__ import annotations

import functools

import pytest

from rocke import isa
from rocke.families.gemm.family import FAMILY
from rocke.gates import conformance as kit

pytestmark = [pytest.mark.validity, pytest.mark.validity_llvm20]  # each lane checks its own flavor


@functools.cache
def _compiled() -> tuple[tuple[str, str, isa.Resources | isa.NvidiaResources | None], ...]:
    flavor = isa.running_flavor()
    assert flavor is not None
    return tuple(kit.compiled_configs(FAMILY, flavor))


@pytest.fixture(scope="module")
def compiled():
    if isa.running_flavor() is None:
        pytest.skip("no rocKE flavor targets the running LLVM")
    return _compiled()


def test_every_built_config_is_shippable_at_its_descriptors_occupancy(compiled) -> None:
    problems = kit.validity_problems(compiled)
    assert not problems, "\n".join(problems)


def test_llvm22_reserves_more_registers_than_it_counts_llvm20_does_not(compiled) -> None:
    built = [res for _name, _asm, res in compiled if isinstance(res, isa.Resources)]  # the AMDGPU configs
    more = [res for res in built if res.reserved_vgprs > res.unified_vgprs or res.reserved_sgprs > res.sgprs]
    assert len(built) >= 40
    if isa.running_flavor() == "llvm20":
        assert more == []
    else:
        assert more, "LLVM 22 reserved exactly what it counted for every gemm config"
