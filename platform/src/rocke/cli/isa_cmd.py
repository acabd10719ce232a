"""`rocke isa (FILE | FAMILY --config N | FAMILY --spec KV) [--arch A] [--flavor F] [--json] [--asm]`.

Real ISA and resource use of a kernel: a rocke.ir/1 file, or a family config built by its builder.
--arch is required except with --config N, whose line names the arch (--arch must then agree).
The rocke.ir/1 text records no arch: a FILE written by `rocke emit --out` or `rocke plan --out`
has it beside it (KERNEL.launch.json's `arch`, or the directory's artifacts.json), and --arch
may then be omitted but must agree; for any other FILE a note on stderr says the arch is the one
--arch names, unchecked.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rocke.cli.common import UsageError, add_target_args, config_arg, one_line, read_kernel
from rocke.engine import lower
from rocke.ir import KernelDef
from rocke.isa import (
    NvidiaResources,
    Resources,
    codegen_target,
    compile_ll,
    ir_sha256,
    kernel_resources,
    resources,
    running_flavor,
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("isa", help="compile a kernel with the real LLVM; print its resources")
    parser.add_argument("file", metavar="FILE|FAMILY", help="kernel in rocke.ir/1 text, or a family name")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--config", type=config_arg, metavar="N", help="with FAMILY: config number (0-based)")
    which.add_argument("--spec", metavar="KV", help="with FAMILY: spec in canonical key=value text")
    add_target_args(parser, flavor_required=False, arch_required=False,
                    flavor_help="LLVM flavor to lower for (default: the one the running LLVM validates)")
    parser.add_argument("--json", action="store_true", help="print resources as JSON")
    parser.add_argument("--asm", action="store_true", help="print the ISA as well")
    parser.set_defaults(run=run)


def compile_kernel(kernel: KernelDef, *, arch: str, flavor: str | None, engine: str | None
                   ) -> tuple[str, str, Resources | NvidiaResources]:
    """Lower and compile; returns (ll, asm, resources). The flavor defaults to the running LLVM's.
    On an NVIDIA arch the assembly is PTX and the resources are ptxas's, with the occupancy of the
    kernel's workgroup size by the CUDA rules."""
    flavor = flavor or running_flavor()
    if flavor is None:
        raise UsageError("the running llvmlite bundles no LLVM flavor rocke knows; pass --flavor")
    ll = lower(kernel, arch=arch, flavor=flavor, engine=engine)
    asm = compile_ll(ll, arch, flavor, output="asm")
    target = codegen_target(arch)
    if target.toolchain == "ptxas":
        return ll, asm, kernel_resources(asm, target.cpu, arch=arch)
    return ll, asm, resources(asm, arch, kernel=kernel.name)


def format_resources(res: Resources | NvidiaResources) -> str:
    """Counted registers (what the code uses), reserved ones (what the kernel descriptor makes the
    hardware allocate), and the occupancy from the reserved figures; on NVIDIA ptxas's figures."""
    if isinstance(res, NvidiaResources):
        return (f"kernel {res.kernel}  arch {res.arch}  warp32  (ptxas)\n"
                f"  registers {res.registers}/thread  shared {res.shared_bytes} B  stack {res.stack_frame_bytes} B  "
                f"spills {res.spill_store_bytes} B stored {res.spill_load_bytes} B loaded  barriers {res.barriers}\n"
                f"  occupancy {res.occupancy} warps per SM sub-partition ({4 * res.occupancy} per SM)")
    return (f"kernel {res.kernel}  arch {res.arch}  wave{res.wave_size}\n"
            f"  counted   vgprs {res.vgprs}  agprs {res.agprs}  (unified {res.unified_vgprs})  sgprs {res.sgprs}"
            f"  occupancy {res.counted_occupancy}\n"
            f"  reserved  vgprs {res.reserved_vgprs} (unified)  sgprs {res.reserved_sgprs}  (kernel descriptor)\n"
            f"  scratch {res.scratch_bytes} B  lds {res.lds_bytes} B  "
            f"spills {res.vgpr_spill} vgpr {res.sgpr_spill} sgpr"
            f"  occupancy {res.occupancy} waves/SIMD (from the reserved registers)")


def recorded_arch(file: str) -> tuple[str, Path] | None:
    """The arch a .rir was built for, as the artifacts written beside it record it (its
    KERNEL.launch.json template, or the plan's artifacts.json listing it), with the recording file."""
    path = Path(file)
    if file == "-" or not path.is_file():
        return None
    template = path.with_name(path.name.removesuffix(".rir") + ".launch.json")
    index = path.with_name("artifacts.json")
    for where in (template, index):
        try:
            data = json.loads(where.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or not isinstance(data.get("arch"), str):
            continue
        if where == index and not any(isinstance(e, dict) and e.get("rir") == path.name
                                      for e in data.get("launches", [])):
            continue
        return data["arch"], where
    return None


def _kernel(args: argparse.Namespace) -> tuple[KernelDef, str]:
    if args.config is None and args.spec is None:
        recorded = recorded_arch(args.file)
        if recorded is None:
            if args.arch is None:
                raise UsageError("--arch is required with FILE (a rocke.ir/1 text records no arch)")
            kernel = read_kernel(args.file)
            print(f"rocke isa: note: {one_line(args.file)} records no arch; compiling it for {args.arch} as --arch "
                  f"says (a kernel built for another arch is not detected)", file=sys.stderr)
            return kernel, args.arch
        arch, where = recorded
        if args.arch is not None and args.arch != arch:
            raise UsageError(f"{one_line(args.file)} was built for {arch} ({one_line(where)} says so), not {args.arch} "
                             f"(omit --arch to use it)")
        return read_kernel(args.file), arch
    from rocke.cli.emit_cmd import resolve_spec
    from rocke.families import build_family, get_family

    family = get_family(args.file)
    spec, arch = resolve_spec(family, args.config, args.spec, args.arch)
    return build_family(family, spec, arch), arch


def run(args: argparse.Namespace) -> int:
    kernel, arch = _kernel(args)
    ll, asm, res = compile_kernel(kernel, arch=arch, flavor=args.flavor, engine=args.engine)
    if args.asm:
        sys.stdout.write(asm)
    if args.json:
        print(json.dumps({"ll_sha256": ir_sha256(ll), **res.to_dict()}, indent=2, sort_keys=True))
    else:
        print(format_resources(res))
    return 0
