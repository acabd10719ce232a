"""The attention backward problem: dQ, dK, dV from Q, K, V, O, dO and the forward's LSE.
Fields and rules: those of attention_fwd; the gradients are laid out like their tensors (dO like
O, dQ like Q, dK like K, dV like V). Served by one launch set of the four attention_bwd_* families
(the hook kernels/attention/attention_bwd_main/candidates.py): prep -> main -> [dq] -> [convert].

This module is that set's plan assembler for dispatch: the families by name, their arch rules (a
spec rule that needs the target: SpecError) and `assemble`, which is plan_attention_bwd (one
assembly of the backward plan) turned into the dispatch plan's launches and shared workspace.
C++ twin: rocke_library/dispatch/attention_bwd.hpp.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rocke.arch import ArchTarget
from rocke.families import Family
from rocke_library.kernels.attention.attention_bwd_convert.builder import check_arch as convert_check_arch
from rocke_library.kernels.attention.attention_bwd_dq.plan import plan_dq
from rocke_library.kernels.attention.attention_bwd_main.candidates import dkv_mode
from rocke_library.kernels.attention.attention_bwd_main.plan import plan_main
from rocke_library.kernels.attention.attention_bwd_prep.builder import check_arch as prep_check_arch
from rocke_library.kernels.attention.backward_plan import ZERO_REGION, backward_records, plan_attention_bwd

from .attention_fwd import AttentionProblem
from .plan import Launch, Workspace, WorkspaceSlice

__all__ = ["FAMILIES", "AttentionBwdProblem", "assemble", "check_arch", "dkv_mode"]


@dataclass(frozen=True)
class AttentionBwdProblem(AttentionProblem):
    KIND = "attention_bwd"
    FAMILY = "attention_bwd problem"


FAMILIES: Mapping[str, Family] = backward_records()  # type: ignore[assignment]
_ARCH_RULES = {
    "attention_bwd_prep": prep_check_arch,
    "attention_bwd_main": plan_main,
    "attention_bwd_dq": plan_dq,
    "attention_bwd_convert": convert_check_arch,
}


def check_arch(family: str, spec: Any, target: ArchTarget) -> None:
    """The family's arch rules for spec (SpecError), as its builder checks them first."""
    _ARCH_RULES[family](spec, target)


def assemble(sizes: Mapping[str, int], specs: Mapping[str, Any], arch: str
             ) -> tuple[tuple[Launch, ...], Workspace]:
    """The launches and workspace of plan_attention_bwd(sizes + arch, specs): every launch with its
    family's contract; the slices lse2, delta, [dq_acc], [dk_acc, dv_acc] as it lays them out, then
    zero_ws (the accumulation region attention_bwd_prep clears, over those slices; offset 0 and 0
    bytes when nothing accumulates, as prep's binding); its zero-init list (empty: prep
    zero-fills). ComponentLaunchError names a refusing contract."""
    assembled = plan_attention_bwd({**sizes, "arch": arch}, specs)
    launches = tuple(Launch(launch.family, launch.spec, launch.contract) for launch in assembled.launches
                     if launch.contract is not None)
    slices = [WorkspaceSlice(piece.name, piece.offset, piece.bytes) for piece in assembled.slices]
    zero = assembled.zero
    slices.append(WorkspaceSlice(ZERO_REGION, 0, 0) if zero is None else WorkspaceSlice(ZERO_REGION, zero.offset,
                                                                                         zero.bytes))
    return launches, Workspace(tuple(slices), assembled.workspace_bytes,
                               tuple((0, name) for name in assembled.zero_init))
