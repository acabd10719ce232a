"""Every op of the op table, mapped to its handler (one module per dialect).

scf.yield has no handler: the interpreter ends a region when it reaches it. Importing this
module checks that the handlers cover the op table exactly, so a new op in ops.toml fails
loudly until the simulator defines it.
"""

from __future__ import annotations

from rocke.ir import OPS

from . import ops_arith, ops_gpu, ops_math, ops_mem, ops_mma, ops_scf, ops_sync, ops_vec, ops_xlane
from .machine import Handler

HANDLERS: dict[str, Handler] = {}
for _module in (ops_arith, ops_math, ops_gpu, ops_mem, ops_xlane, ops_sync, ops_mma, ops_vec, ops_scf):
    for _name, _handler in _module.HANDLERS.items():
        if _name in HANDLERS:
            raise AssertionError(f"rocke.sim: two handlers for {_name}")
        HANDLERS[_name] = _handler

INTERPRETER_OPS = ("scf.yield",)

_missing = [op.name for op in OPS if op.name not in HANDLERS and op.name not in INTERPRETER_OPS]
_unknown = sorted(set(HANDLERS) - {op.name for op in OPS})
if _missing or _unknown:
    raise AssertionError(f"rocke.sim: handlers do not match the op table; missing {_missing}, unknown {_unknown}")
