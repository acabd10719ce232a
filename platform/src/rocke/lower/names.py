"""Names in the emitted function, all derived deterministically from the IR.

* a value (param, op result, region argument) with name hint H and id N is %H.N, without a hint
  %vN. Hints already match [A-Za-z_][A-Za-z0-9_.]*; any other character would become '_'.
* temporaries (instructions an op needs besides its results) are %tK, K counting from 0 in
  emission order over the whole kernel;
* blocks are entry, then per scf op, numbered from 0 in program order: forK.header, forK.body,
  forK.latch, forK.exit and ifK.then, ifK.else, ifK.join.
A hinted name always contains a '.' followed by digits only, temporaries and unhinted values never
contain a '.', and block labels end in a letter, so no two names collide.
"""

from __future__ import annotations

from rocke.ir.core import Value

_ALLOWED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")


def sanitize_hint(hint: str) -> str:
    return "".join(ch if ch in _ALLOWED else "_" for ch in hint)


def value_name(value: Value) -> str:
    if value.name:
        return f"%{sanitize_hint(value.name)}.{value.id}"
    return f"%v{value.id}"
