"""`rocke demo`: the main job -- a real gemm config through both engines and the real LLVM, then,
with a library installed, a problem of one library family end to end.

It builds the first gfx942 config of the `gemm` family with the Python engine, the C++ engine (bindings)
and the native emitter `rocke-emit`, shows the sha256 of each `.ll` at llvm22 (they must be identical),
compiles it with LLVM's AMDGPU backend and prints the kernel's resources and launch contract.

Then (when an installed planner serves DEMO_KIND, as the library's does) the product path on one
problem: `rocke plan` in both engines (byte-identical plan), each launch's kernel through both
engines, its ISA resources and code object (with ld.lld; skipped, visibly, without it) written
into a temporary directory as `rocke plan --out` writes them, and the plan run on the simulator
against the family's reference (`rocke sim --problem`): PASS or the demo fails.
"""

from __future__ import annotations

import argparse
import hashlib

import rocke
from rocke.cli.isa_cmd import format_resources
from rocke.engine import native_engine
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.gates.emitters import emit_cpp, emit_native, emit_python
from rocke.isa import compile_ll, resources, running_flavor

DEMO_FAMILY = "gemm"
DEMO_ARCH = "gfx942"
DEMO_FLAVOR = "llvm22"
DEMO_PROBLEM = {"m": 1000, "n": 1000, "k": 1000}
DEMO_KIND = "conv_fwd"  # a ResNet-style 3x3 convolution, small enough for the simulator
DEMO_KIND_PROBLEM = "n=1 h=8 w=8 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("demo", help="the main job: a real kernel, both engines, its ISA resources")
    parser.set_defaults(run=run)


def _sha(text: str | None) -> str:
    return hashlib.sha256((text or "").encode()).hexdigest()


def run(_args: argparse.Namespace) -> int:
    engine = native_engine()
    print(f"rocke {rocke.__version__} (python engine); rocke_engine {engine.version()} [{engine.build_id()}]")
    family = get_family(DEMO_FAMILY)
    index, config = next((i, c) for i, c in enumerate(family_configs(family))
                         if c.arch == DEMO_ARCH and not c.refuse)
    print(f"{family.name} config {index} ({config.arch}): {config.kv}")
    outs = {
        "python": emit_python(family, config, (DEMO_FLAVOR,)),
        "cpp": emit_cpp(family, config, (DEMO_FLAVOR,)),
        "native": emit_native(family, (DEMO_FLAVOR,))[index],
    }
    for name, out in outs.items():
        state = out.crash or out.refusal or f".ll sha256 {_sha(out.ll.get(DEMO_FLAVOR))}"
        print(f"  {name:<7} {state}")
    texts = {out.ll.get(DEMO_FLAVOR) for out in outs.values()}
    if len(texts) != 1 or None in texts:
        print("FAILED: the engines do not agree byte for byte")
        return 1
    print("  byte-identical: python == cpp == native")
    ll = texts.pop()
    if running_flavor() != DEMO_FLAVOR:
        print(f"(ISA skipped: this environment's LLVM validates {running_flavor()}, not {DEMO_FLAVOR})")
        return 0
    asm = compile_ll(ll, DEMO_ARCH, DEMO_FLAVOR, output="asm")
    print(format_resources(resources(asm, DEMO_ARCH)))
    spec = family.spec.from_kv(config.kv)
    print(f"launch contract for {DEMO_PROBLEM}:")
    print(family.launch(spec, DEMO_PROBLEM).to_json(), end="")
    return _library_problem()


def _library_problem() -> int:
    """The product path on one problem of a library kind (module docstring); 0 when it passes."""
    import tempfile
    from pathlib import Path

    from rocke.cli.plan_cmd import plan_problem, write_plan_artifacts
    from rocke.families.planners import discover_planners

    planner = discover_planners().get(DEMO_KIND)
    if planner is None or planner.simulate is None:
        print(f"(no planner serves {DEMO_KIND}: install the library for the product path)")
        return 0
    print(f"\n{DEMO_KIND} [{DEMO_KIND_PROBLEM}] on {DEMO_ARCH}:")
    plan_json, text, status = plan_problem(planner, DEMO_KIND_PROBLEM, DEMO_ARCH, "both")
    print("  plan (python == cpp, byte-identical):")
    print("".join(f"    {line}\n" for line in text.splitlines()), end="")
    if status != "planned":
        print("FAILED: the demo problem is not planned")
        return 1
    with tempfile.TemporaryDirectory(prefix="rocke-demo-") as tmp:
        lines = write_plan_artifacts(plan_json, Path(tmp), flavor=DEMO_FLAVOR, engine="both")
        print(f"  artifacts (rocke plan --out; both engines agree on every kernel): "
              f"{sum(' wrote ' in line for line in lines)} files")
        for line in lines:
            if "skipped" in line or line.endswith(".hsaco"):
                print(f"    {line.replace(tmp, '<out>')}")
        if running_flavor() == DEMO_FLAVOR:
            for ll_file in sorted(Path(tmp).glob("*.ll")):
                asm = compile_ll(ll_file.read_text(), DEMO_ARCH, DEMO_FLAVOR, output="asm")
                print("".join(f"  {line}\n" for line in format_resources(resources(asm, DEMO_ARCH)).splitlines()),
                      end="")
    result = planner.simulate(DEMO_KIND_PROBLEM, DEMO_ARCH, 0)
    print(f"  simulator: {result.message}")
    print("  PASS" if result.ok else "  FAILED")
    return 0 if result.ok else 1
