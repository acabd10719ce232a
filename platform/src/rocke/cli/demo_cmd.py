"""`rocke demo`: the main job -- a real gemm config through both engines and the real LLVM.

It builds the first gfx942 config of the `gemm` family with the Python engine, the C++ engine (bindings)
and the native emitter `rocke-emit`, shows the sha256 of each `.ll` at llvm22 (they must be identical),
compiles it with LLVM's AMDGPU backend and prints the kernel's resources and launch contract.
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
    return 0
