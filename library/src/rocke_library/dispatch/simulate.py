"""A problem planned by dispatch and run on the simulator against its float64 reference: what
`rocke sim KIND --problem 'k=v ...' --arch A` runs (the planner's `simulate`).

The plan is followed as a host would follow it (kernels/attention/backward_sim.run_plan: the
launches in order, the shared workspace, every argument bound as the plan says); inputs are
random from the seed. Varlen problems give only the totals and the longest sequence, so the
sequences are filled in order: each takes the longest length until the total runs out, the rest
are empty (a zero-length sequence is legal and worth running).
"""

from __future__ import annotations

from rocke.sim import Comparison
from rocke_library.kernels.attention.backward_sim import Case, run_case

from .attention_bwd import FAMILIES, AttentionBwdProblem
from .dispatch import plan

USER_TENSORS = ("q", "k", "v", "o", "do", "dq", "dk", "dv")  # the caller's buffers (not the workspace's)


def varlen_lengths(batch: int, total: int, longest: int) -> tuple[int, ...]:
    """batch sequence lengths summing to total, none over longest: filled in order."""
    if total > batch * longest:
        raise ValueError(f"total {total} exceeds batch {batch} sequences of at most {longest} tokens")
    lengths = []
    for _ in range(batch):
        take = min(longest, total)
        lengths.append(take)
        total -= take
    return tuple(lengths)


def planned(kind: str, text: str, arch: str):
    """The dispatch plan of a problem; ValueError when it is not planned (nothing to simulate)."""
    result = plan(kind, text, arch)
    if result.status != "planned" or not result.launches:
        detail = "dead: its outputs are empty" if result.status == "dead" else result.to_text().strip()
        raise ValueError(f"{kind} [{text}] on {arch} has no launch to simulate ({detail})")
    return result


def simulate_attention_bwd(text: str, arch: str, seed: int) -> Comparison:
    """The attention backward of a problem: its planned launch set on the simulator, dQ, dK and dV
    each checked against the float64 backward (backward_sim.run_case)."""
    result = planned("attention_bwd", text, arch)
    specs = {launch.family: FAMILIES[launch.family].spec.from_kv(launch.spec) for launch in result.launches}
    problem = AttentionBwdProblem.from_kv(result.problem)
    strides: dict[str, int] = {}
    for launch in result.launches:  # each launch's contract names the strides of the tensors it binds
        strides.update({key: int(value) for key, value in dict(launch.contract.problem).items()
                        if "_stride_" in key and key.partition("_stride_")[0] in USER_TENSORS})
    heads, layout = (problem.heads_q, problem.heads_kv), tuple(sorted(strides.items()))
    if problem.seq_mode == "varlen":
        case = Case(varlen_lengths(problem.batch, problem.total_q, problem.seqlen_q),
                    varlen_lengths(problem.batch, problem.total_k, problem.seqlen_k), *heads, strides=layout)
    else:
        case = Case((problem.seqlen_q,) * problem.batch, (problem.seqlen_k,) * problem.batch, *heads, strides=layout)
    return run_case(specs, arch, case, mask=specs["attention_bwd_main"].mask, seed=seed)  # type: ignore[attr-defined]


SIMULATED = {"attention_bwd": simulate_attention_bwd}
