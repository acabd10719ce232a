"""Every built config of attention_fwd, lowered for the running LLVM's flavor, compiles with real
LLVM (in child processes) without scratch, VGPR or SGPR spills, within the arch's LDS. Runs in
both LLVM lanes, each with its own flavor."""

from __future__ import annotations

import pytest
from attention_cases import FAMILIES, configs

from rocke import isa
from rocke.arch import get_arch
from rocke.lower import lower

pytestmark = [pytest.mark.validity, pytest.mark.validity_llvm20]  # each lane checks its own flavor


def test_every_built_config_compiles_without_spills() -> None:
    flavor = isa.running_flavor()
    if flavor is None:
        pytest.skip("no rocKE flavor targets the running LLVM")
    jobs, names = [], []
    for name in sorted(FAMILIES):
        family = FAMILIES[name]
        for line in configs(name):
            if line.refuse:
                continue
            kernel = family.build(family.spec.from_kv(line.kv), line.arch)  # type: ignore[misc, union-attr]
            jobs.append(isa.CompileJob(lower(kernel, arch=line.arch, flavor=flavor), line.arch, "asm"))
            names.append(f"{name}.cfg line {line.lineno} ({line.arch})")
    problems = []
    for name, job, result in zip(names, jobs, isa.compile_many(jobs, flavor), strict=True):
        if not result.ok:
            problems.append(f"{name}: {result.error}")
            continue
        res = isa.resources(result.value, job.arch)
        if res.scratch_bytes or res.vgpr_spill or res.sgpr_spill or res.lds_bytes > get_arch(job.arch).lds_bytes:
            problems.append(f"{name}: {res}")
    assert not problems, "\n".join(problems)
