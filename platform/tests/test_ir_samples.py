"""The sample corpus (rocke.ir.samples): coverage of the op table, needs, freshness."""

from __future__ import annotations

from rocke.ir import OPS, KernelNeeds, kernel_needs, print_kernel, verify
from rocke.ir.samples import MFMA_OP_ID, SAMPLE_NAMES, WMMA_OP_ID, sample_kernels, sample_needs


def test_samples_use_every_op_of_the_table():
    used = {op.opcode for kernel in sample_kernels().values() for op in kernel.walk()}
    assert sorted(op.name for op in OPS if op.name not in used) == []


def test_samples_are_named_fresh_and_verified():
    first, second = sample_kernels(), sample_kernels()
    assert tuple(first) == SAMPLE_NAMES
    for name in SAMPLE_NAMES:
        assert first[name] is not second[name]
        assert first[name].name == name
        assert print_kernel(first[name]) == print_kernel(second[name])
        verify(first[name])


def test_sample_needs():
    needs = sample_needs()
    assert tuple(needs) == SAMPLE_NAMES
    assert needs["axpy"] == KernelNeeds((), ())
    assert needs["block_reduce"].features == ("global_atomic_fadd_f32",)
    assert needs["xlane_ops"].features == ("ds_bpermute", "ds_swizzle")
    assert needs["gemm_mfma"].mma_op_ids == (MFMA_OP_ID,)
    assert needs["gemm_wmma"].mma_op_ids == (WMMA_OP_ID,)
    assert kernel_needs(sample_kernels()["gemm_mfma"]) == needs["gemm_mfma"]


def test_kernel_walk_is_text_order():
    kernel = sample_kernels()["nested_control"]
    ids = [op.results[0].id for op in kernel.walk() if op.results]
    assert ids == sorted(ids)
    assert kernel.op_count() == len(list(kernel.walk()))
