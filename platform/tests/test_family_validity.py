"""Every built config of the platform families, lowered for the running LLVM's flavor, compiles with
real LLVM (in child processes) without scratch and within the arch's LDS: the resource gate refuses
a shipped config that spills."""

from __future__ import annotations

import pytest

from rocke import isa
from rocke.arch import get_arch
from rocke.families.configs import load_configs
from rocke.families.platform_families import provide
from rocke.lower import lower

pytestmark = pytest.mark.validity


def test_every_built_config_compiles_without_scratch() -> None:
    flavor = isa.running_flavor()
    if flavor is None:
        pytest.skip("no rocKE flavor targets the running LLVM")
    jobs, names = [], []
    for family in provide():
        for line in load_configs(family.name):
            if line.refuse:
                continue
            kernel = family.build(family.spec.from_kv(line.kv), line.arch)  # type: ignore[misc, union-attr]
            jobs.append(isa.CompileJob(lower(kernel, arch=line.arch, flavor=flavor), line.arch, "asm"))
            names.append(f"{family.name}.cfg line {line.lineno} ({line.arch})")
    problems = []
    for name, job, result in zip(names, jobs, isa.compile_many(jobs, flavor), strict=True):
        if not result.ok:
            problems.append(f"{name}: {result.error}")
            continue
        res = isa.resources(result.value, job.arch)
        if res.scratch_bytes or res.vgpr_spill or res.sgpr_spill or res.lds_bytes > get_arch(job.arch).lds_bytes:
            problems.append(f"{name}: {res}")
    assert not problems, "\n".join(problems)
