"""The .amdgpu_metadata YAML-subset parser and the resource reader, on hand-written assembly."""

from __future__ import annotations

import contextlib
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke import isa
from rocke.isa.metadata_yaml import parse_yaml

# --- YAML subset --------------------------------------------------------------------------------------

LLVM_STYLE = """---
amdhsa.kernels:
  - .agpr_count:     4
    .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     hidden_block_count_x
    .language_version:
      - 1
      - 2
    .name:           k
    .reqd_workgroup_size: [ 64, 1, 1 ]
    .type_name:      'float*'
    .uses_dynamic_stack: false
amdhsa.printf:
  - '1:1:4:%d\\n'
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
"""


def test_parses_llvm_style_metadata():
    doc = parse_yaml(LLVM_STYLE)
    assert doc == {
        "amdhsa.kernels": [
            {
                ".agpr_count": "4",
                ".args": [
                    {
                        ".address_space": "global",
                        ".name": "out",
                        ".offset": "0",
                        ".size": "8",
                        ".value_kind": "global_buffer",
                    },
                    {".offset": "8", ".size": "4", ".value_kind": "hidden_block_count_x"},
                ],
                ".language_version": ["1", "2"],
                ".name": "k",
                ".reqd_workgroup_size": ["64", "1", "1"],
                ".type_name": "float*",
                ".uses_dynamic_stack": "false",
            }
        ],
        "amdhsa.printf": ["1:1:4:%d\\n"],
        "amdhsa.target": "amdgcn-amd-amdhsa--gfx942",
        "amdhsa.version": ["1", "2"],
    }


def test_scalar_forms():
    doc = parse_yaml(
        "a: 'it''s'\n"
        'b: "tab\\tquote\\" \\x41\\u00e9"\n'
        "c: plain text # comment\n"
        "d: {}\n"
        "e: []\n"
        "f:\n"
        "- same-indent item\n"
        "g:\n"
        "# comment line\n"
        "h: 'x' # trailing\n"
    )
    assert doc == {
        "a": "it's",
        "b": 'tab\tquote" A\u00e9',
        "c": "plain text",
        "d": {},
        "e": [],
        "f": ["same-indent item"],
        "g": None,
        "h": "x",
    }


def test_nested_sequences_and_empty_items():
    assert parse_yaml("-\n  - 1\n  - 2\n- 3\n-\n") == [["1", "2"], "3", None]


def test_deep_nesting_is_refused_not_a_recursion_error():
    deep = "".join(" " * (2 * level) + "-\n" for level in range(5000))
    with pytest.raises(isa.ResourceParseError, match="metadata line 33: nesting deeper than 32 levels"):
        parse_yaml(deep)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: 1\n\tb: 2\n", "metadata line 2: tab in indentation"),
        ("a: &anchor 1\n", "metadata line 1: unsupported YAML construct"),
        ("a: |\n  block\n", "metadata line 1: unsupported YAML construct"),
        ("a: 1\n   b: 2\n", "metadata line 2: unexpected indentation"),
        ("a: 'open\n", "metadata line 1: unterminated single-quoted scalar"),
        ('a: "open\n', "metadata line 1: unterminated double-quoted scalar"),
        ('a: "\\q"\n', "metadata line 1: unsupported escape in double-quoted scalar"),
        ("a: 1\na: 2\n", "metadata line 2: duplicate key a"),
        ("a: [1, [2]]\n", "metadata line 1: unsupported flow sequence item"),
        ("a: [1, 2\n", "metadata line 1: unterminated flow sequence"),
        ("a: {b: 1}\n", "metadata line 1: unsupported flow mapping"),
        ("just words\n", "metadata line 1: expected 'key: value'"),
        ("  a: 1\n", "metadata line 1: document must start at column 0"),
        ("a: 1\n- b\n", "metadata line 2: unexpected content"),
        ("- - a\n", "metadata line 1: unsupported nested sequence on one line"),
        ("a: 'x' y\n", "metadata line 1: text after quoted scalar"),
    ],
)
def test_refuses_unsupported_yaml_with_line_numbers(text, message):
    with pytest.raises(isa.ResourceParseError) as info:
        parse_yaml(text)
    assert str(info.value) == message


_KEY = st.text(alphabet=string.ascii_lowercase + "._", min_size=1, max_size=8).filter(
    lambda k: k[0] not in "-#"
)
_SCALAR = st.one_of(
    st.integers(min_value=0, max_value=2**40).map(str),
    st.text(alphabet=string.ascii_letters + string.digits + "_.-", min_size=1, max_size=10).filter(
        lambda s: not s.startswith("-") and s not in ("---", "...")
    ),
    st.text(alphabet=string.ascii_letters + " :#'[],{}", min_size=0, max_size=10),  # always quoted
)
_TREE = st.recursive(
    _SCALAR,
    lambda children: st.one_of(
        st.lists(children, min_size=1, max_size=4),
        st.dictionaries(_KEY, children, min_size=1, max_size=4),
    ),
    max_leaves=20,
)


def _quote(value: str) -> str:
    plain = string.ascii_letters + string.digits + "_.-"
    if value and all(c in plain for c in value) and not value.startswith("-"):
        return value
    return "'" + value.replace("'", "''") + "'"


def _emit(value, indent: int) -> list[str]:
    """Block YAML the way LLVM prints it: sequences indented under their key, '- key: v' items."""
    pad = " " * indent
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if isinstance(item, str):
                out.append(f"{pad}{key}: {_quote(item)}")
            else:
                out.append(f"{pad}{key}:")
                out.extend(_emit(item, indent + 2))
        return out
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(f"{pad}- {_quote(item)}")
        elif isinstance(item, dict):
            inner = _emit(item, indent + 2)
            out.append(f"{pad}- {inner[0].lstrip(' ')}")
            out.extend(inner[1:])
        else:
            out.append(f"{pad}-")
            out.extend(_emit(item, indent + 2))
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(st.dictionaries(_KEY, _TREE, min_size=1, max_size=5), st.lists(_TREE, min_size=1, max_size=5))
)
def test_round_trips_generated_documents(doc):
    text = "---\n" + "\n".join(_emit(doc, 0)) + "\n...\n"
    assert parse_yaml(text) == doc


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable + "\u00e9", max_size=200))
def test_untrusted_text_never_crashes(text):
    with contextlib.suppress(isa.ResourceParseError):
        parse_yaml(text)


# --- resources from hand-written assembly -------------------------------------------------------------

ASM = """\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
\t.amdhsa_kernel gemm
\t\t.amdhsa_group_segment_fixed_size 16384
\t\t.amdhsa_private_segment_fixed_size 0
\t\t.amdhsa_next_free_vgpr 104
\t\t.amdhsa_accum_offset 40
\t.end_amdhsa_kernel
\t.set gemm.num_vgpr, 38
\t.set gemm.num_agpr, 64
\t.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     64
    .group_segment_fixed_size: 16384
    .max_flat_workgroup_size: 256
    .name:           gemm
    .private_segment_fixed_size: 0
    .sgpr_count:     20
    .sgpr_spill_count: 0
    .symbol:         gemm.kd
    .vgpr_count:     104
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   'amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-'
amdhsa.version:
  - 1
  - 2
...

\t.end_amdgpu_metadata
"""


def test_reads_every_field_from_its_source():
    res = isa.resources(ASM, "gfx942")
    assert (res.kernel, res.arch, res.wave_size) == ("gemm", "gfx942", 64)
    assert (res.vgprs, res.agprs, res.unified_vgprs, res.sgprs) == (38, 64, 104, 20)
    assert (res.scratch_bytes, res.lds_bytes, res.vgpr_spill, res.sgpr_spill) == (0, 16384, 0, 0)
    assert res.workgroup_size == 256
    assert res.occupancy >= 1


def test_without_resource_symbols_the_accum_offset_bounds_vgprs():
    asm = ASM.replace("\t.set gemm.num_vgpr, 38\n", "")
    assert isa.resources(asm, "gfx942").vgprs == 40


def test_without_agprs_vgpr_count_is_exact():
    asm = (
        ASM.replace("\t.set gemm.num_vgpr, 38\n", "")
        .replace(".agpr_count:     64", ".agpr_count:     0")
        .replace(".vgpr_count:     104", ".vgpr_count:     38")
    )
    res = isa.resources(asm, "gfx942")
    assert (res.vgprs, res.agprs, res.unified_vgprs) == (38, 0, 38)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("\t.amdgpu_metadata\n", "", "no .amdgpu_metadata block in the assembly"),
        ("\t.end_amdgpu_metadata\n", "", ".amdgpu_metadata block is not terminated by .end_amdgpu_metadata"),
        ("    .sgpr_count:     20\n", "", "kernel gemm: metadata lacks .sgpr_count"),
        (
            ".sgpr_count:     20",
            ".sgpr_count:     -2",
            "kernel gemm: metadata .sgpr_count is not a non-negative integer",
        ),
        (
            ".amdhsa_group_segment_fixed_size 16384",
            ".amdhsa_group_segment_fixed_size 512",
            "kernel gemm: metadata .group_segment_fixed_size 16384 disagrees with "
            ".amdhsa_group_segment_fixed_size 512",
        ),
        (
            "\t.end_amdhsa_kernel",
            "\t\t.amdhsa_wavefront_size32 1\n\t.end_amdhsa_kernel",
            "kernel gemm: metadata .wavefront_size 64 disagrees with the descriptor's 32",
        ),
        (
            "amdhsa.target:   'amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-'\n",
            "",
            "metadata lacks amdhsa.target",
        ),
        ("    .name:           gemm\n", "", "amdhsa.kernels entry 0 has no .name"),
        ("amdhsa.kernels:", "amdhsa.kernelz:", "metadata lists no kernels (amdhsa.kernels)"),
        (
            ".sgpr_count:     20",
            ".sgpr_count:     " + "9" * 5000,
            "kernel gemm: metadata .sgpr_count is not a non-negative integer",
        ),
        (
            ".max_flat_workgroup_size: 256",
            ".max_flat_workgroup_size: 0",
            "kernel gemm: metadata .max_flat_workgroup_size must be at least 1",
        ),
        (
            "\t.end_amdhsa_kernel",
            "\t\t.amdhsa_private_segment_fixed_size 4\n\t.end_amdhsa_kernel",
            "kernel gemm: metadata .private_segment_fixed_size 0 disagrees with "
            ".amdhsa_private_segment_fixed_size 4",
        ),
    ],
)
def test_malformed_assembly_is_refused_clearly(old, new, message):
    assert old in ASM
    with pytest.raises(isa.ResourceParseError) as info:
        isa.resources(ASM.replace(old, new), "gfx942")
    assert str(info.value) == message


def test_wave_size_other_than_the_arch_model_is_refused():
    # Occupancy is modelled for the arch's native wave size only.
    asm = ASM.replace(".wavefront_size: 64", ".wavefront_size: 32").replace(
        "\t.end_amdhsa_kernel", "\t\t.amdhsa_wavefront_size32 1\n\t.end_amdhsa_kernel"
    )
    with pytest.raises(isa.ResourceParseError) as info:
        isa.resources(asm, "gfx942")
    assert str(info.value) == "kernel gemm: compiled for wave32, but rocke.arch models gfx942 in wave64"


def test_occupancy_comes_from_rocke_arch():
    from rocke.arch import occupancy

    res = isa.resources(ASM, "gfx942")
    expected = occupancy("gfx942", vgprs=38, agprs=64, sgprs=20, lds_bytes=16384, workgroup_size=256)
    assert res.occupancy == expected >= 1


def test_two_metadata_blocks_are_refused():
    with pytest.raises(isa.ResourceParseError, match=r"more than one \.amdgpu_metadata block"):
        isa.resources(ASM + ASM, "gfx942")


def test_unknown_arch_is_refused():
    with pytest.raises(ValueError, match="unknown arch 'gfx90a'"):
        isa.resources(ASM, "gfx90a")


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=string.printable, max_size=300))
def test_resources_of_garbage_raise_only_parse_errors(noise):
    for text in (noise, ASM.replace("amdhsa.kernels:", noise), ASM.replace(".name:           gemm", noise)):
        with contextlib.suppress(isa.ResourceParseError):
            isa.resources(text, "gfx942")


# --- reserved registers: the kernel descriptor ----------------------------------------------------------

RESERVING = ASM.replace(
    "\t\t.amdhsa_next_free_vgpr 104\n", "\t\t.amdhsa_next_free_vgpr 200\n\t\t.amdhsa_next_free_sgpr 90\n"
).replace("\t.set gemm.num_agpr, 64\n", "\t.set gemm.num_agpr, 64\n\t.set gemm.numbered_sgpr, 14\n")


def test_reserved_registers_come_from_the_descriptor():
    counted = isa.resources(ASM, "gfx942")
    assert (counted.reserved_vgprs, counted.reserved_sgprs) == (104, 20)  # no numbered_sgpr symbol: the count
    assert counted.occupancy == counted.counted_occupancy
    res = isa.resources(RESERVING, "gfx942")
    assert (res.vgprs, res.agprs, res.unified_vgprs, res.sgprs) == (38, 64, 104, 20)  # counted: unchanged
    assert res.reserved_vgprs == 200  # unified, split at .amdhsa_accum_offset 40
    assert res.reserved_sgprs == 90 + 20 - 14  # the descriptor's SGPRs plus what LLVM adds to the count
    # 200 reserved registers leave two waves of the 512-register file per SIMD; the 104 counted leave four.
    assert (res.occupancy, res.counted_occupancy) == (2, 4)


def test_a_descriptor_reserving_less_than_counted_is_refused():
    asm = ASM.replace("\t\t.amdhsa_next_free_vgpr 104\n", "\t\t.amdhsa_next_free_vgpr 100\n")
    with pytest.raises(isa.ResourceParseError, match="the descriptor reserves 100 VGPRs and 20 SGPRs, fewer than"):
        isa.resources(asm, "gfx942")
