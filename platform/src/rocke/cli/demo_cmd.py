"""`rocke demo`: the main job -- a real MMA kernel through both engines and the real LLVM."""

from __future__ import annotations

import argparse
import hashlib

import rocke
from rocke.cli.isa_cmd import compile_kernel, format_resources
from rocke.engine import EngineUnavailableError, native_engine
from rocke.families import discover_families
from rocke.ir import print_kernel
from rocke.ir.samples import sample_kernels

DEMO_KERNEL = "gemm_mfma"
DEMO_ARCH = "gfx942"
DEMO_FLAVOR = "llvm22"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("demo", help="the main job: a real kernel, both engines, its ISA resources")
    parser.set_defaults(run=run)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def run(_args: argparse.Namespace) -> int:
    engine = native_engine()
    print(f"rocke {rocke.__version__} (python engine); rocke_engine {engine.version()} [{engine.build_id()}]")
    families = discover_families()
    print(f"families: {', '.join(f'{f.name} ({f.owner})' for f in families) or 'none registered yet'}")
    kernel = sample_kernels()[DEMO_KERNEL]
    print(f"kernel {kernel.name}: {kernel.op_count()} ops, IR sha256 {_sha(print_kernel(kernel))}")
    try:
        ll, _asm, res = compile_kernel(kernel, arch=DEMO_ARCH, flavor=DEMO_FLAVOR, engine="both")
        print(f"{DEMO_ARCH} {DEMO_FLAVOR}: python == cpp, .ll sha256 {_sha(ll)}")
    except EngineUnavailableError as exc:
        ll, _asm, res = compile_kernel(kernel, arch=DEMO_ARCH, flavor=DEMO_FLAVOR, engine="python")
        print(f"{DEMO_ARCH} {DEMO_FLAVOR}: python engine only ({exc}); .ll sha256 {_sha(ll)}")
    print(format_resources(res))
    return 0
