"""Hostile rocke.ir/1 inputs of a chosen size: the cases that once made a parser slow or large.

Each is refused (or, for the large valid kernel, accepted) in time linear in its size, with memory
a small multiple of it, by both engines. The fuzz corpora of both engines (the hypothesis tests and
platform/tools/sanitize_fuzz.py) and the bench lane's parse row draw on this one list.
"""

from __future__ import annotations

from .facts import VERSION

_HEADER = VERSION + "\n"


def _fill(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def adversarial_inputs(size: int) -> dict[str, str]:
    """Name -> text of about `size` bytes, every one a ParseError in both engines."""
    kernel = _HEADER + "kernel @k {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}\nbody {\n"
    ids = " ".join(f"%{i} : i32," for i in range(1, max(2, size // 12)))
    return {
        "trailing_spaces": _HEADER + _fill(" ", size),
        "spaces_then_char": _HEADER + _fill(" ", size) + "?",
        "open_braces": _HEADER + _fill("{", size),
        "commas": _HEADER + _fill(",", size),
        "blank_lines": _HEADER + _fill("\n", size),
        "long_ident": _HEADER + _fill("a", size),
        "long_value_id": kernel + "%" + _fill("1", size) + " = gpu.lane_id\n}\n",
        "long_integer": kernel + "%0 : i32 = arith.constant {value = " + _fill("9", size) + " : i32}\n}\n",
        "unterminated_string": kernel + '%0 "' + _fill("h", size),
        "many_results": kernel + ids + " %0 : i32 = gpu.lane_id\n}\n",
        "many_operands": kernel + "%0 : i32 = gpu.lane_id\n%1 : i32 = arith.add " + _fill("%0, ", size) + "%0\n}\n",
        "many_attributes": kernel + "sync.barrier {" + ", ".join(f"a{i:07d} = 1 : i32" for i in range(
            max(1, size // 16))) + "}\n}\n",
        "type_spaces": kernel.replace("body {\n", "param %0 : ptr<" + _fill(" ", size) + "f32, global>\n"),
    }
