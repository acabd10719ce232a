"""dispatch(problem, arch): a problem to a plan, trying each serving family's candidates in order.

This module only lists: the problem kinds (KINDS) and, per kind, the families whose dispatch hook
(`candidates(problem, target)` in the family's folder, rocke_library.kernels.candidate) serves
it, in the order they are tried (HOOKS). Adding a family is one line there. The loop, per
candidate in order: the hook's own reasons; else the spec (its rules: SPEC_REFUSED), the
family's resource-refusal table (RESOURCE_REFUSED) and the launch contract for the problem
(TOO_LARGE). The first candidate with no reason is planned; every one tried before it is
listed as rejected. A dead problem (its `dead()`: empty outputs) is planned as no launch before
any hook runs. A kind no family serves is refused with NO_INSTANCE. A candidate with `then`
launches of its family (a split-K reduction's convert) is planned only when each passes the
same checks. A candidate that is a launch set (Candidate.parts: the attention backward) is checked part by
part in launch order (spec and arch rules: SPEC_REFUSED, refusal table: RESOURCE_REFUSED, each
naming the part's family), then its kind's assembler (LAUNCH_SETS) lays out the launches and
the shared workspace; a contract refusing the problem is TOO_LARGE naming its family.
C++ twin: rocke_library/dispatch/dispatch.hpp.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rocke.arch import ArchTarget, get_arch
from rocke.families import Family
from rocke.families.launch import LaunchError
from rocke.families.refusals import ResourceRefusal, check_resources, family_table
from rocke.families.spec import SpecError
from rocke_library.kernels.attention.attention_bwd_main import candidates as attention_bwd_main_hook
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY as ATTENTION_BWD_MAIN
from rocke_library.kernels.attention.attention_fwd import candidates as attention_fwd_hook
from rocke_library.kernels.attention.attention_fwd.family import FAMILY as ATTENTION_FWD
from rocke_library.kernels.attention.backward_plan import ComponentLaunchError
from rocke_library.kernels.candidate import Candidate
from rocke_library.kernels.conv.conv_direct_fwd import candidates as conv_direct_fwd_hook
from rocke_library.kernels.conv.conv_direct_fwd.family import FAMILY as CONV_DIRECT_FWD
from rocke_library.kernels.conv.conv_igemm_dgrad import candidates as conv_igemm_dgrad_hook
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY as CONV_IGEMM_DGRAD
from rocke_library.kernels.conv.conv_igemm_fwd import candidates as conv_igemm_fwd_hook
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY as CONV_IGEMM_FWD
from rocke_library.kernels.conv.conv_igemm_wgrad import candidates as conv_igemm_wgrad_hook
from rocke_library.kernels.conv.conv_igemm_wgrad.family import FAMILY as CONV_IGEMM_WGRAD

from . import attention_bwd
from .attention_bwd import AttentionBwdProblem
from .attention_fwd import AttentionFwdProblem
from .conv_dgrad import ConvDgradProblem
from .conv_fwd import ConvFwdProblem
from .conv_wgrad import ConvWgradProblem
from .plan import Launch, Plan, Rejection, Workspace
from .problem import Problem
from .reasons import ordered

Hook = Callable[[Any, ArchTarget], list[Candidate]]

KINDS: dict[str, type[Problem]] = {
    "attention_bwd": AttentionBwdProblem,
    "attention_fwd": AttentionFwdProblem,
    "conv_dgrad": ConvDgradProblem,
    "conv_fwd": ConvFwdProblem,
    "conv_wgrad": ConvWgradProblem,
}

# Per kind, (family, hook) in the order dispatch tries them. conv_fwd: the MMA implicit GEMM
# first, the direct kernel for what it refuses (f32 / f64, depthwise, nchw ...).
HOOKS: dict[str, tuple[tuple[Family, Hook], ...]] = {
    "attention_bwd": ((ATTENTION_BWD_MAIN, attention_bwd_main_hook.candidates),),
    "attention_fwd": ((ATTENTION_FWD, attention_fwd_hook.candidates),),
    "conv_dgrad": ((CONV_IGEMM_DGRAD, conv_igemm_dgrad_hook.candidates),),
    "conv_fwd": (
        (CONV_IGEMM_FWD, conv_igemm_fwd_hook.candidates),
        (CONV_DIRECT_FWD, conv_direct_fwd_hook.candidates),
    ),
    "conv_wgrad": ((CONV_IGEMM_WGRAD, conv_igemm_wgrad_hook.candidates),),
}



@dataclass(frozen=True)
class LaunchSet:
    """How dispatch checks and plans a kind's launch-set candidates: the families by name, their
    arch rules (SpecError) and the plan assembler (sizes, specs by family, arch) -> (launches, workspace)."""

    families: Mapping[str, Family]
    check_arch: Callable[[str, Any, ArchTarget], None]
    assemble: Callable[[Mapping[str, int], Mapping[str, Any], str], tuple[tuple[Launch, ...], Workspace]]


# Per kind whose candidates are launch sets, its assembler.
LAUNCH_SETS: dict[str, LaunchSet] = {
    "attention_bwd": LaunchSet(attention_bwd.FAMILIES, attention_bwd.check_arch, attention_bwd.assemble),
}


def problem_kind(kind: str) -> type[Problem]:
    if kind not in KINDS:
        raise ValueError(f"unknown problem kind '{kind}'; known: {', '.join(KINDS)}")
    return KINDS[kind]


def parse_problem(kind: str, text: str) -> Problem:
    """The problem of kind from a caller's kv text (Problem.parse); ValueError when malformed."""
    return problem_kind(kind).parse(text)


def _try_all(family: Family, candidate: Candidate, arch: str) -> tuple[Rejection | None, tuple[Launch, ...]]:
    """The candidate's launches (it, then its `then` ones), or the first one's rejection."""
    launches = []
    for part in (candidate, *candidate.then):
        rejection, launch = _try(family, part, arch)
        if launch is None:
            return rejection, ()
        launches.append(launch)
    return None, tuple(launches)


def _try(family: Family, candidate: Candidate, arch: str) -> tuple[Rejection | None, Launch | None]:
    if candidate.reasons:
        return Rejection(family.name, candidate.spec, ordered(candidate.reasons), candidate.detail), None
    assert family.spec is not None and family.launch is not None
    try:
        spec = family.spec.from_kv(candidate.spec)
    except SpecError as exc:
        return Rejection(family.name, candidate.spec, ("SPEC_REFUSED",), str(exc)), None
    try:
        check_resources(family_table(family), spec, arch)
    except ResourceRefusal as exc:
        return Rejection(family.name, candidate.spec, ("RESOURCE_REFUSED",), str(exc)), None
    try:
        contract = family.launch(spec, dict(candidate.sizes))
    except LaunchError as exc:
        return Rejection(family.name, candidate.spec, ("TOO_LARGE",), str(exc)), None
    return None, Launch(family.name, candidate.spec, contract)


def _try_set(kind: str, candidate: Candidate, target: ArchTarget
             ) -> tuple[Rejection | None, tuple[Launch, ...] | None, Workspace | None]:
    if candidate.reasons:
        return Rejection(candidate.family, "", ordered(candidate.reasons), candidate.detail), None, None
    launch_set = LAUNCH_SETS[kind]
    specs: dict[str, Any] = {}
    for name, kv in candidate.parts:
        family = launch_set.families[name]
        assert family.spec is not None
        try:
            spec = family.spec.from_kv(kv)
            launch_set.check_arch(name, spec, target)
        except SpecError as exc:
            return Rejection(name, kv, ("SPEC_REFUSED",), str(exc)), None, None
        try:
            check_resources(family_table(family), spec, target.name)
        except ResourceRefusal as exc:
            return Rejection(name, kv, ("RESOURCE_REFUSED",), str(exc)), None, None
        specs[name] = spec
    try:
        launches, workspace = launch_set.assemble(dict(candidate.sizes), specs, target.name)
    except ComponentLaunchError as exc:
        return Rejection(exc.family, dict(candidate.parts)[exc.family], ("TOO_LARGE",), str(exc)), None, None
    return None, launches, workspace


def dispatch(problem: Problem, arch: str) -> Plan:
    """The plan of problem on arch (module docstring); an unknown arch is a ValueError."""
    target = get_arch(arch)
    kind, kv = problem.KIND, problem.to_kv()
    if problem.dead():
        return Plan(kind, target.name, kv, "dead")
    rejected: list[Rejection] = []
    tried = 0
    for family, hook in HOOKS[kind]:
        for candidate in hook(problem, target):
            tried += 1
            if kind in LAUNCH_SETS:
                rejection, launches, shared = _try_set(kind, candidate, target)
            else:
                rejection, launches = _try_all(family, candidate, target.name)
                shared = None
            if launches:
                return Plan(kind, target.name, kv, "planned", launches, tuple(rejected), shared)
            assert rejection is not None
            rejected.append(rejection)
    if tried == 0:
        rejected.append(Rejection("", "", ("NO_INSTANCE",), f"{kind}: no family of this build serves it"))
    return Plan(kind, target.name, kv, "refused", (), tuple(rejected))


def launch_sizes(kind: str, text: str, family: str, spec: str, arch: str) -> tuple[dict[str, int], str]:
    """The problem sizes `family`'s launch contract takes for a problem of kind, as dispatch gives
    them to the family's candidates, and the problem's canonical kv text. Keys the problem text
    lacks are taken from the spec's fields of the same name (a conv spec's window and dtype, an
    attention spec's head_dim, dtype, mask and seq_mode). ValueError when the problem is
    malformed, the family does not serve the kind, its hook rejects the problem before a spec
    exists, or the kind's launches are a launch set (their contracts come from its plan)."""
    problem_type = problem_kind(kind)
    fields = problem_type.field_types()
    pairs = text.split(" ") if text else []
    given = {pair.partition("=")[0] for pair in pairs}
    pairs += [pair for pair in spec.split(" ") if pair.partition("=")[0] in fields and pair.partition("=")[0]
              not in given]
    problem = problem_type.parse(" ".join(pairs))
    if kind in LAUNCH_SETS:
        raise ValueError(f"{family}: its launches are a {kind} launch set, whose contracts come from the set's "
                         f"plan (rocke plan {kind} --problem ... --out DIR)")
    hooks = [hook for served, hook in HOOKS[kind] if served.name == family]
    if not hooks:
        raise ValueError(f"{family} does not serve {kind} problems")
    found = hooks[0](problem, get_arch(arch))
    for candidate in found:
        if candidate.sizes:
            return dict(candidate.sizes), problem.to_kv()
    why = "; ".join(f"{', '.join(c.reasons)}: {c.detail}" for c in found) or "no candidate"
    raise ValueError(f"{family} takes no launch for the {kind} problem [{problem.to_kv()}]: {why}")


def plan(kind: str, text: str, arch: str) -> Plan:
    """parse_problem + dispatch."""
    return dispatch(parse_problem(kind, text), arch)
