"""The MMA catalog: every layout covers its tile exactly, queries, errors and data checks."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rocke.arch import (
    ARCH_NAMES,
    MMA_OP_IDS,
    MMA_OPS,
    ArchDataError,
    UnknownArchError,
    UnknownMmaOpError,
    get_arch,
    largest_k,
    mma_op,
    mma_ops,
    operand_layout,
    parse_mma_data,
)
from rocke.arch.datafile import read_data_text

MMA_TEXT = read_data_text("mma.toml")

EXPECTED_IDS = (
    "mfma_f32_32x32x8_f16",
    "mfma_f32_16x16x16_f16",
    "mfma_f32_32x32x8_bf16",
    "mfma_f32_16x16x16_bf16",
    "mfma_f32_16x16x32_f16",
    "mfma_f32_16x16x32_bf16",
    "mfma_f32_32x32x16_f16",
    "mfma_f32_32x32x16_bf16",
    "wmma_f32_16x16x16_f16_gfx11",
    "wmma_f32_16x16x16_bf16_gfx11",
    "wmma_f32_16x16x16_f16_gfx12",
    "wmma_f32_16x16x16_bf16_gfx12",
    "mma_sync_f32_16x8x16_f16",
    "mma_sync_f32_16x8x16_bf16",
)

OPERAND_CASES = [(op.id, name) for op in MMA_OPS for name in ("a", "b", "c")]


def test_catalog_ids() -> None:
    assert MMA_OP_IDS == EXPECTED_IDS


@pytest.mark.parametrize(("op_id", "operand"), OPERAND_CASES)
def test_layout_covers_tile_exactly_replication_times(op_id: str, operand: str) -> None:
    """Enumerate every lane and slot: the map onto the tile is a bijection, or exactly
    r-to-1 where the op declares replication r (gfx11 WMMA A/B)."""
    op = mma_op(op_id)
    frag = op.operand(operand)
    rows, cols = {"a": (op.m, op.k), "b": (op.k, op.n), "c": (op.m, op.n)}[operand]
    assert (frag.rows, frag.cols) == (rows, cols)
    entries = operand_layout(op_id, operand)
    assert len(entries) == op.wave_size * frag.length
    assert [(lane, slot) for lane, slot, _, _ in entries] == [
        (lane, slot) for lane in range(op.wave_size) for slot in range(frag.length)]
    hits = Counter((row, col) for _, _, row, col in entries)
    for row, col in hits:
        assert 0 <= row < rows and 0 <= col < cols, (op_id, operand, row, col)
    assert len(hits) == rows * cols
    assert set(hits.values()) == {frag.replication}


@pytest.mark.parametrize("op_id", EXPECTED_IDS)
def test_replication_only_on_gfx11_wmma_inputs(op_id: str) -> None:
    op = mma_op(op_id)
    gfx11 = op_id.endswith("_gfx11")
    assert (op.a.replication, op.b.replication, op.c.replication) == ((2, 2, 1) if gfx11 else (1, 1, 1))
    if gfx11:
        # Lanes 16-31 hold exactly what lanes 0-15 hold.
        for frag in (op.a, op.b):
            for lane in range(16):
                for slot in range(frag.length):
                    assert frag.coords(lane, slot) == frag.coords(lane + 16, slot)


@pytest.mark.parametrize("op_id", EXPECTED_IDS)
def test_fragments_compute_the_tile_product(op_id: str) -> None:
    """Scatter random tiles into fragments by the layouts, form D per lane/slot from the
    fragments (each lane's A row and B column through the shared K order), and compare with
    numpy. This holds only if A's and B's K indices agree and C's layout matches D's."""
    op = mma_op(op_id)
    rng = np.random.default_rng(7)
    a = rng.integers(-3, 4, size=(op.m, op.k)).astype(np.int64)
    b = rng.integers(-3, 4, size=(op.k, op.n)).astype(np.int64)
    c = rng.integers(-3, 4, size=(op.m, op.n)).astype(np.int64)
    a_frag = {(lane, slot): a[op.a.coords(lane, slot)] for lane in range(op.wave_size)
              for slot in range(op.a.length)}
    b_frag = {(lane, slot): b[op.b.coords(lane, slot)] for lane in range(op.wave_size)
              for slot in range(op.b.length)}
    # Index every A element and B element by its (m, k) / (k, n) position through the fragments.
    a_by_pos = {op.a.coords(*key): value for key, value in a_frag.items()}
    b_by_pos = {op.b.coords(*key): value for key, value in b_frag.items()}
    d = np.zeros((op.m, op.n), dtype=np.int64)
    for lane in range(op.wave_size):
        for slot in range(op.c.length):
            row, col = op.c.coords(lane, slot)
            d[row, col] = c[row, col] + sum(a_by_pos[(row, kk)] * b_by_pos[(kk, col)] for kk in range(op.k))
    np.testing.assert_array_equal(d, a @ b + c)


def test_llvm_vector_types_per_generation() -> None:
    def llvm(op_id: str) -> tuple[str, str, str]:
        op = mma_op(op_id)
        return op.a.llvm_type, op.b.llvm_type, op.c.llvm_type

    assert llvm("mfma_f32_32x32x8_f16") == ("<4 x half>", "<4 x half>", "<16 x float>")
    assert llvm("mfma_f32_16x16x16_bf16") == ("<4 x i16>", "<4 x i16>", "<4 x float>")  # gfx942 .1k form
    assert llvm("mfma_f32_16x16x32_bf16") == ("<8 x bfloat>", "<8 x bfloat>", "<4 x float>")  # gfx950
    assert llvm("mfma_f32_32x32x16_f16") == ("<8 x half>", "<8 x half>", "<16 x float>")
    assert llvm("wmma_f32_16x16x16_f16_gfx11") == ("<16 x half>", "<16 x half>", "<8 x float>")
    assert llvm("wmma_f32_16x16x16_bf16_gfx11") == ("<16 x i16>", "<16 x i16>", "<8 x float>")
    assert llvm("wmma_f32_16x16x16_f16_gfx12") == ("<8 x half>", "<8 x half>", "<8 x float>")
    assert llvm("wmma_f32_16x16x16_bf16_gfx12") == ("<8 x i16>", "<8 x i16>", "<8 x float>")


def test_intrinsic_names_and_immediates() -> None:
    op = mma_op("mfma_f32_32x32x8_bf16")
    assert op.intrinsic == "llvm.amdgcn.mfma.f32.32x32x8bf16.1k"
    assert [(i.name, i.type, i.value) for i in op.imm_operands] == [("cbsz", "i32", 0), ("abid", "i32", 0),
                                                                     ("blgp", "i32", 0)]
    assert op.llvm_call_types() == ("<16 x float>", ("<4 x i16>", "<4 x i16>", "<16 x float>", "i32", "i32", "i32"))
    wmma = mma_op("wmma_f32_16x16x16_bf16_gfx12")
    assert wmma.intrinsic == "llvm.amdgcn.wmma.f32.16x16x16.bf16.v8f32.v8i16"
    assert wmma.imm_operands == ()
    for op in MMA_OPS:
        assert op.source and op.layout_source
        if op.kind == "mma_sync":
            assert op.intrinsic.startswith("llvm.nvvm.mma.m16n8k16.row.col.")
            assert op.mnemonic.startswith(f"mma.sync.aligned.m{op.m}n{op.n}k{op.k}.row.col.f32.")
            continue
        assert op.intrinsic.startswith(f"llvm.amdgcn.{op.kind}.f32.")
        assert op.mnemonic.startswith(f"v_{op.kind}_f32_{op.m}x{op.n}x{op.k}_")
    # mma.sync passes its fragments as 32-bit parts and returns a struct (IntrinsicsNVVM.td).
    bf16 = mma_op("mma_sync_f32_16x8x16_bf16")
    assert bf16.llvm_call_types() == ("{ float, float, float, float }", ("i32",) * 6 + ("float",) * 4)
    f16 = mma_op("mma_sync_f32_16x8x16_f16")
    assert f16.llvm_call_types() == ("{ float, float, float, float }", ("<2 x half>",) * 6 + ("float",) * 4)


def _ptx_m16n8k16_fragment(operand: str, lane: int, index: int) -> tuple[int, int]:
    """PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type", written as the ISA's
    figures state them (not the catalog's formulas): groupID = laneid >> 2, threadID_in_group =
    laneid % 4; A: row groupID for a0, a1, a4, a5 and groupID + 8 for a2, a3, a6, a7, col
    threadID_in_group * 2 + (i & 1) for a0..a3 and that + 8 for a4..a7; B: row threadID_in_group * 2 +
    (i & 1) for b0, b1 and that + 8 for b2, b3, col groupID; C: row groupID for c0, c1 and groupID + 8
    for c2, c3, col threadID_in_group * 2 + (i & 1)."""
    group, tid = lane >> 2, lane % 4
    if operand == "a":
        row = group if index in (0, 1, 4, 5) else group + 8
        col = tid * 2 + (index & 1) + (8 if index >= 4 else 0)
        return row, col
    if operand == "b":
        return tid * 2 + (index & 1) + (8 if index >= 2 else 0), group
    return (group if index < 2 else group + 8), tid * 2 + (index & 1)


@pytest.mark.parametrize("op_id", ["mma_sync_f32_16x8x16_f16", "mma_sync_f32_16x8x16_bf16"])
@pytest.mark.parametrize("operand", ["a", "b", "c"])
def test_mma_sync_layouts_match_the_ptx_figures(op_id: str, operand: str) -> None:
    for lane, slot, row, col in operand_layout(op_id, operand):
        assert (row, col) == _ptx_m16n8k16_fragment(operand, lane, slot), (op_id, operand, lane, slot)


def test_arch_sets() -> None:
    def archs(op_id: str) -> tuple[str, ...]:
        return mma_op(op_id).archs

    for op_id in EXPECTED_IDS[:4]:
        assert archs(op_id) == ("gfx942", "gfx950")
    for op_id in EXPECTED_IDS[4:8]:
        assert archs(op_id) == ("gfx950",)
    assert archs("wmma_f32_16x16x16_f16_gfx11") == archs("wmma_f32_16x16x16_bf16_gfx11") == ("gfx1100",)
    assert archs("wmma_f32_16x16x16_f16_gfx12") == archs("wmma_f32_16x16x16_bf16_gfx12") == ("gfx1201",)
    for op in MMA_OPS:
        for arch in op.archs:
            assert get_arch(arch).wave_size == op.wave_size


def test_unknown_op_and_operand() -> None:
    with pytest.raises(UnknownMmaOpError) as info:
        mma_op("mfma_f32_4x4x4_f16")
    assert str(info.value) == f"unknown mma op 'mfma_f32_4x4x4_f16'; known: {', '.join(EXPECTED_IDS)}"
    assert isinstance(info.value, KeyError) and isinstance(info.value, ValueError)
    with pytest.raises(UnknownMmaOpError):
        operand_layout("nope", "a")
    with pytest.raises(ValueError) as err:
        operand_layout("mfma_f32_16x16x16_f16", "d")
    assert str(err.value) == "unknown mma operand 'd'; expected one of: a, b, c"


def test_mma_ops_filters() -> None:
    assert mma_ops() == MMA_OPS
    assert [op.id for op in mma_ops("gfx942")] == list(EXPECTED_IDS[:4])
    assert [op.id for op in mma_ops(get_arch("gfx942"), a_dtype="bf16")] == [
        "mfma_f32_32x32x8_bf16", "mfma_f32_16x16x16_bf16"]
    assert [op.id for op in mma_ops("gfx950", "f16", "f16", "f32", m=32)] == [
        "mfma_f32_32x32x8_f16", "mfma_f32_32x32x16_f16"]
    assert [op.id for op in mma_ops("gfx1201", acc_dtype="f32")] == list(EXPECTED_IDS[10:12])
    assert [op.id for op in mma_ops("sm_90", n=8)] == list(EXPECTED_IDS[12:])
    assert mma_ops("gfx1100", a_dtype="f16", b_dtype="bf16") == ()
    assert mma_ops("gfx942", m=64) == ()
    assert mma_ops(acc_dtype="i32") == ()
    with pytest.raises(UnknownArchError):
        mma_ops("gfx90a")
    with pytest.raises(ValueError) as info:
        mma_ops("gfx942", a_dtype="fp16")
    assert str(info.value) == "unknown a_dtype 'fp16'; known: i1, i8, i16, i32, i64, f16, bf16, f32"


@pytest.mark.parametrize(
    ("arch", "dtype", "m", "expected"),
    [
        ("gfx942", "f16", None, "mfma_f32_16x16x16_f16"),
        ("gfx942", "f16", 32, "mfma_f32_32x32x8_f16"),
        ("gfx942", "bf16", None, "mfma_f32_16x16x16_bf16"),
        ("gfx950", "f16", None, "mfma_f32_16x16x32_f16"),
        ("gfx950", "bf16", 32, "mfma_f32_32x32x16_bf16"),
        ("gfx950", "bf16", 16, "mfma_f32_16x16x32_bf16"),
        ("gfx1100", "f16", None, "wmma_f32_16x16x16_f16_gfx11"),
        ("gfx1201", "bf16", 16, "wmma_f32_16x16x16_bf16_gfx12"),
        ("gfx1201", "bf16", 32, None),
    ],
)
def test_largest_k(arch: str, dtype: str, m: int | None, expected: str | None) -> None:
    op = largest_k(arch, dtype, dtype, "f32", m=m)
    assert (op.id if op else None) == expected


def test_largest_k_ties_keep_catalog_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # No two current ops tie, so add a same-shape copy after the original and ask again.
    first = MMA_TEXT.index("\n[[op]]\n")
    second = MMA_TEXT.index("\n[[op]]\n", first + 1)
    copy = MMA_TEXT[first:second].replace('id = "mfma_f32_32x32x8_f16"', 'id = "mfma_f32_32x32x8_f16_copy"')
    ops = parse_mma_data(MMA_TEXT + "\n" + copy)
    monkeypatch.setattr("rocke.arch.mma.MMA_OPS", ops)
    assert [op.id for op in mma_ops("gfx942", "f16", "f16", "f32", m=32)] == [
        "mfma_f32_32x32x8_f16", "mfma_f32_32x32x8_f16_copy"]
    assert largest_k("gfx942", "f16", "f16", "f32", m=32).id == "mfma_f32_32x32x8_f16"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('format = "rocke.mma/1"', 'format = "rocke.mma/0"', "mma.toml: format must be 'rocke.mma/1'"),
        ('archs = ["gfx950"]', 'archs = ["gfx90a"]',
         "mma.toml: op 'mfma_f32_16x16x32_f16'.archs: unknown arch 'gfx90a'"),
        ("replication = 2", "replication = 1",
         "mma.toml: op 'wmma_f32_16x16x16_f16_gfx11': operand 'a': wave_size * length must equal the tile size "
         "times replication"),
        ('archs = ["gfx942", "gfx950"]', 'archs = ["gfx942", "gfx1100"]',
         "mma.toml: op 'mfma_f32_32x32x8_f16': wave_size differs from arch 'gfx1100'"),
        ('row = "lane % 32"', 'row = "lane %% 32"',
         "mma.toml: op 'mfma_f32_32x32x8_f16': operand 'a': bad layout expression 'lane %% 32': expected a number, "
         "'lane', 'slot' or '(' at column 7, found '%'"),
        ("length = 4\n", "length = 5\n",
         "mma.toml: op 'mfma_f32_32x32x8_f16': operand 'a': wave_size * length must equal the tile size times "
         "replication"),
        ('dtype = "f16"', 'dtype = "half"',
         "mma.toml: op 'mfma_f32_32x32x8_f16': operand 'a'.dtype: expected one of i1, i8, i16, i32, i64, f16, bf16, "
         "f32"),
        ('kind = "mfma"', 'kind = "wmma"',
         "mma.toml: op 'mfma_f32_32x32x8_f16': kind differs from the mma_kind of arch 'gfx942'"),
        ('{ name = "cbsz", type = "i32", value = 0 }', '{ name = "cbsz", type = "i64", value = 0 }',
         "mma.toml: op 'mfma_f32_32x32x8_f16'.imm_operands[0].type: expected one of i1, i32"),
        ('id = "mfma_f32_16x16x16_f16"', 'id = "mfma_f32_32x32x8_f16"',
         "mma.toml: op: 'mfma_f32_32x32x8_f16' appears twice"),
        ('mnemonic = "v_mfma_f32_32x32x8_f16"\n', "",
         "mma.toml: op 'mfma_f32_32x32x8_f16': 'mnemonic' is missing"),
    ],
)
def test_loader_error_messages(old: str, new: str, message: str) -> None:
    assert old in MMA_TEXT
    with pytest.raises(ArchDataError) as info:
        parse_mma_data(MMA_TEXT.replace(old, new, 1))
    assert str(info.value) == message


def test_packaged_catalog_round_trips() -> None:
    assert parse_mma_data(MMA_TEXT) == MMA_OPS


def test_every_arch_has_an_mma_op() -> None:
    for name in ARCH_NAMES:
        assert mma_ops(name), name
