"""Packing held to real PTX: a kernel whose parameters mirror a launch contract is compiled by
LLVM's NVPTX backend (llvmlite, sm_90) and the `.entry` parameter list of its PTX is read back;
the contract's layout must agree with it, and a layout that does not is refused by name. Where
ptxas (nvidia-cuda-nvcc-cu12) is installed, it assembles that PTX into a cubin."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import llvmlite.binding as llvm
import pytest

from rocke.families.elementwise.contract import launch as elementwise_launch
from rocke.families.elementwise.spec import ElementwiseSpec
from rocke.families.gemm.contract import launch as gemm_launch
from rocke.families.gemm.spec import GemmSpec
from rocke.families.launch import LaunchContract
from rocke.runtime import contract_layout, param_layout
from rocke.runtime.ptx import check_ptx_params, ptx_entry_params

LLVM_TYPES = {"i32": "i32", "i64": "i64", "f32": "float"}
SPACES = {"global": 1, "constant": 4}  # NVPTX address spaces


def _llvm_type(type_text: str) -> str:
    if type_text.startswith("ptr<"):
        return f"ptr addrspace({SPACES[type_text.rstrip('>').split(', ')[-1]]})"
    return LLVM_TYPES[type_text]


def _ptx(name: str, param_types: list[str]) -> str:
    """PTX of an empty sm_90 kernel with these LLVM parameter types (one store keeps it honest)."""
    params = ", ".join(f"{t} %a{i}" for i, t in enumerate(param_types))
    ll = (f'target triple = "nvptx64-nvidia-cuda"\n'
          f"define ptx_kernel void @{name}({params}) {{\n  ret void\n}}\n")
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    module = llvm.parse_assembly(ll)
    module.verify()
    machine = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu="sm_90")
    return machine.emit_assembly(module)


def _contract_ptx(contract: LaunchContract) -> str:
    return _ptx(contract.kernel, [_llvm_type(arg.type) for arg in contract.args])


CONTRACTS = {
    "elementwise": elementwise_launch(ElementwiseSpec.from_kv("block=256 dtype=f16 op=silu vec=8"), {"n": 4097}),
    "gemm": gemm_launch(GemmSpec.from_kv(
        "a_dtype=f16 a_layout=col b_dtype=f16 b_layout=col bias=1 bk=16 bm=32 bn=32 c_dtype=f32 double_buffer=0 "
        "lds_pad=2 op_id=mfma_f32_16x16x16_f16 wm=1 wn=1"), {"m": 100, "n": 70, "k": 99}),
}


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_contract_layout_matches_the_ptx_entry_parameters(name):
    contract = CONTRACTS[name]
    ptx = _contract_ptx(contract)
    params = ptx_entry_params(ptx, contract.kernel)
    layout = contract_layout(contract)
    assert [p.name for p in params] == [f"{contract.kernel}_param_{i}" for i in range(len(contract.args))]
    assert [(p.offset, p.size) for p in params] == [(s.offset, s.size) for s in layout.slots]
    assert [p.pointer for p in params] == [s.kind == "pointer" for s in layout.slots]
    check_ptx_params(layout, params, contract.kernel)


def test_gemm_contract_has_pointers_sizes_and_an_f32_scalar():
    contract = CONTRACTS["gemm"]
    params = ptx_entry_params(_contract_ptx(contract), contract.kernel)
    types = {arg.name: p.type for arg, p in zip(contract.args, params, strict=True)}
    assert types["a"] == "u64" and types["alpha"] == "f32" and types["m"] == "u32"


def test_padding_i64_and_generic_pointers_follow_ptx_alignment():
    ptx = _ptx("mixed", ["i32", "ptr addrspace(1)", "float", "i64", "ptr"])
    params = ptx_entry_params(ptx, "mixed")
    assert [(p.type, p.offset, p.size, p.pointer) for p in params] == [
        ("u32", 0, 4, False), ("u64", 8, 8, True), ("f32", 16, 4, False), ("u64", 24, 8, False),
        ("u64", 32, 8, True)]
    layout = param_layout([("n", "i32"), ("a", "ptr<f32, global>"), ("alpha", "f32"), ("big", "i64"),
                           ("g", "ptr<f32, global>")])
    check_ptx_params(layout, params, "mixed")


def test_a_layout_that_disagrees_with_the_ptx_is_refused_by_name():
    contract = CONTRACTS["elementwise"]
    params = ptx_entry_params(_contract_ptx(contract), contract.kernel)
    swapped = param_layout([("x", "ptr<f16, global>"), ("out", "ptr<f16, global>"), ("n", "f32")])
    with pytest.raises(ValueError) as info:
        check_ptx_params(swapped, params, contract.kernel)
    assert str(info.value) == (f".entry {contract.kernel}: argument n (f32) is packed as 4 bytes at offset 16; the "
                               f"PTX declares .u32 {contract.kernel}_param_2 (4 bytes at offset 16)")
    with pytest.raises(ValueError, match="the PTX declares 3 parameter\\(s\\), the layout packs 2"):
        check_ptx_params(param_layout([("x", "ptr<f16, global>"), ("n", "i32")]), params, contract.kernel)
    as_int = param_layout([("x", "i64"), ("out", "ptr<f16, global>"), ("n", "i32")])
    with pytest.raises(ValueError, match="argument x \\(i64\\)"):
        check_ptx_params(as_int, params, contract.kernel)


def test_aggregate_parameters_and_missing_entries():
    ptx = ".visible .entry agg(\n\t.param .align 8 .b8 agg_param_0[12],\n\t.param .u32 agg_param_1\n)\n{\n}\n"
    params = ptx_entry_params(ptx, "agg")
    assert [(p.type, p.offset, p.size) for p in params] == [("b8", 0, 12), ("u32", 12, 4)]
    with pytest.raises(ValueError, match=r"no \.entry other in the PTX \(entries: agg\)"):
        ptx_entry_params(ptx, "other")
    with pytest.raises(ValueError, match=r"unreadable parameter '\.param \.weird x'"):
        ptx_entry_params(".entry bad(\n.param .weird x\n)", "bad")


def _ptxas() -> str | None:
    try:
        import nvidia.cuda_nvcc as nvcc
    except ImportError:
        return shutil.which("ptxas")
    found = Path(next(iter(nvcc.__path__))) / "bin" / "ptxas"
    return str(found) if found.is_file() else shutil.which("ptxas")


def test_ptxas_assembles_the_contract_kernel(tmp_path):
    ptxas = _ptxas()
    if ptxas is None:
        pytest.skip("ptxas not installed (pip install nvidia-cuda-nvcc-cu12)")
    contract = CONTRACTS["gemm"]
    source = tmp_path / "k.ptx"
    source.write_text(_contract_ptx(contract))
    out = tmp_path / "k.cubin"
    proc = subprocess.run([ptxas, "-arch=sm_90", str(source), "-o", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:4] == b"\x7fELF"
