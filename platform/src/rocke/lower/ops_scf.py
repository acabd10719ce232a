"""Lowering of scf.for and scf.if into basic blocks with phis.

scf.for (K = the scf op's number in program order):

      br label %forK.header
    forK.header:                      ; iv and iter values: phis from the entering block and the latch
      %iv = phi [lb, %PRE], [%next, %forK.latch]  ...
      %cond = icmp slt iv, ub
      br i1 %cond, label %forK.body, label %forK.exit
    forK.body:   <body ops>           br label %forK.latch
    forK.latch:  %next = add iv, step  br label %forK.header
    forK.exit:   <one phi per result, from the header>

scf.if:  br i1 %c, label %ifK.then, label %ifK.else (or %ifK.join when the else region is only a
bare scf.yield and the op has no results); each region's block(s) end with br label %ifK.join;
ifK.join starts with one phi per result naming the block each region ended in.
The loop is written as is (no unrolling or rotation); trip counts may differ between lanes, LLVM's
structurizer handles divergence.
"""

from __future__ import annotations

from rocke.ir.core import Op

from .emitter import FunctionEmitter


def lower_for(em: FunctionEmitter, op: Op) -> None:
    number = em.next_scf_id()
    header, body, latch, exit_ = (f"for{number}.{part}" for part in ("header", "body", "latch", "exit"))
    path = em.loc + ".body"
    lb, ub, step, *inits = op.operands
    region = op.regions[0]
    iv, *iters = region.args
    entering = em.current
    em.emit(f"br label %{header}")
    em.label(header)
    phi_at = len(em.lines)  # the phis are written once the latch values are known
    iv_name = em.bind(iv)
    iter_names = [em.bind(arg) for arg in iters]
    cond = em.temp()
    em.emit(f"{cond} = icmp slt {em.llvm_type(lb.type)} {iv_name}, {em.ref(ub)}")
    em.emit(f"br i1 {cond}, label %{body}, label %{exit_}")
    em.label(body)
    yielded = em.lower_region(region, path)
    em.emit(f"br label %{latch}")
    em.label(latch)
    next_iv = em.temp()
    em.emit(f"{next_iv} = add {em.llvm_type(lb.type)} {iv_name}, {em.ref(step)}")
    em.emit(f"br label %{header}")
    phis = [f"  {iv_name} = phi {em.llvm_type(lb.type)} [ {em.ref(lb)}, %{entering} ], [ {next_iv}, %{latch} ]"]
    for name, init, value in zip(iter_names, inits, yielded, strict=True):
        phis.append(f"  {name} = phi {em.llvm_type(init.type)} [ {em.ref(init)}, %{entering} ], "
                    f"[ {em.ref(value)}, %{latch} ]")
    em.lines[phi_at:phi_at] = phis
    em.label(exit_)
    for result, name in zip(op.results, iter_names, strict=True):
        em.emit(f"{em.bind(result)} = phi {em.llvm_type(result.type)} [ {name}, %{header} ]")


def lower_if(em: FunctionEmitter, op: Op) -> None:
    number = em.next_scf_id()
    then_label, else_label, join = (f"if{number}.{part}" for part in ("then", "else", "join"))
    loc = em.loc
    then_region, else_region = op.regions
    skip_else = not op.results and len(else_region.ops) == 1
    em.emit(f"br i1 {em.ref(op.operands[0])}, label %{then_label}, label %{join if skip_else else else_label}")
    em.label(then_label)
    then_values = em.lower_region(then_region, loc + ".then")
    then_end = em.current
    em.emit(f"br label %{join}")
    else_values: tuple = ()
    else_end = ""
    if not skip_else:
        em.label(else_label)
        else_values = em.lower_region(else_region, loc + ".else")
        else_end = em.current
        em.emit(f"br label %{join}")
    em.label(join)
    for result, a, b in zip(op.results, then_values, else_values, strict=True):
        em.emit(f"{em.bind(result)} = phi {em.llvm_type(result.type)} [ {em.ref(a)}, %{then_end} ], "
                f"[ {em.ref(b)}, %{else_end} ]")


LOWERINGS = {"scf.for": lower_for, "scf.if": lower_if}
