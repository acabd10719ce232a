#!/usr/bin/env python3
"""Probe the real LLVM of a flavor for the arch domain of every intrinsic rocke.lower may declare.

For each declaration of the intrinsic table (rocke/arch/data/intrinsics.toml + the MMA catalog;
overloaded rows once per scalar element type) and each arch, a tiny kernel calling it is compiled
with the running llvmlite through rocke.isa.compile_many (child processes, so an LLVM abort only
costs a child) and classified:

    ok           compiled, and the intrinsic was selected
    arch-absent  LLVM aborted or reported a backend error ("Cannot select", ...)
    name-absent  compiled, but as a call of an external symbol: this LLVM does not know the name

A declaration LLVM refuses to verify (wrong signature for this LLVM) is a table error: the tool
stops with exit status 2 and LLVM's message, so a flavor override can be added.

The result is this flavor's section of platform/src/rocke/arch/data/arch_domain.toml; the other
flavors' sections are kept as they are. Run it once per flavor, in that flavor's environment:

    PYTHONPATH=platform/src python platform/tools/probe_arch_domain.py             # llvm22 (llvmlite 0.48-0.50)
    PYTHONPATH=platform/src /tmp/v20/bin/python platform/tools/probe_arch_domain.py  # llvm20 (llvmlite 0.45-0.47)

Options: --check (exit 1 with a diff when regeneration would change the file, writing nothing),
--flavor NAME (default: the flavor the running LLVM validates), --file PATH.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rocke is imported inside the functions, after main() has set up sys.path
    from rocke.arch import Flavor, IntrinsicDecl
    from rocke.arch.arch_domain import Section
    from rocke.isa import CompileResult

DEFAULT_FILE = Path(__file__).resolve().parents[1] / "src" / "rocke" / "arch" / "data" / "arch_domain.toml"


def probe_module(decl: IntrinsicDecl, flavor: Flavor, arch: str) -> str:
    """A kernel of arch's target calling decl: immarg operands get 0, the others come from kernel
    arguments, and a result is stored so nothing is dead."""
    from rocke.arch import get_arch

    target = get_arch(arch).vendor_target

    kernel_args = ["ptr addrspace(1) %out"]
    call_args = []
    for index, (param, arg_type) in enumerate(zip(decl.params, decl.arg_types, strict=True)):
        if param != arg_type:  # immarg
            call_args.append(f"{arg_type} 0")
        else:
            kernel_args.append(f"{arg_type} %a{index}")
            call_args.append(f"{arg_type} %a{index}")
    call = f"call {decl.ret} @{decl.name}({', '.join(call_args)})"
    body = [f"  {call}"] if decl.ret == "void" else [f"  %r = {call}", f"  store {decl.ret} %r, ptr addrspace(1) %out"]
    return "\n".join([
        f'target datalayout = "{target.datalayout(flavor.name)}"',
        f'target triple = "{target.triple}"',
        "",
        f"define {target.kernel_cc} void @probe({', '.join(kernel_args)}) {{",
        *body,
        "  ret void",
        "}",
        "",
        decl.text,
        "",
    ])


class TableError(Exception):
    """The intrinsic table does not match this LLVM (it refused a declaration)."""


def classify(decl: IntrinsicDecl, result: CompileResult) -> str:
    from rocke.isa import LLVMVerifyError

    if result.ok:
        return "name-absent" if decl.name in str(result.value) else "ok"
    if isinstance(result.error, LLVMVerifyError):
        raise TableError(f"LLVM refuses the declaration of {decl.name}:\n{result.error}")
    return "arch-absent"


def probe_section(flavor_name: str) -> Section:
    """This flavor's section: (declaration name, statuses in ARCH_NAMES order) in table order."""
    from rocke.arch import ARCH_NAMES, domain_probes, get_flavor
    from rocke.isa import CompileJob, compile_many

    flavor = get_flavor(flavor_name)
    decls = domain_probes(flavor_name)
    jobs = [CompileJob(probe_module(decl, flavor, arch), arch, "asm", decl.name)
            for decl in decls for arch in ARCH_NAMES]
    statuses = [classify(decls[r.index // len(ARCH_NAMES)], r) for r in compile_many(jobs, flavor_name)]
    width = len(ARCH_NAMES)
    return tuple((decl.name, tuple(statuses[i * width:(i + 1) * width])) for i, decl in enumerate(decls))


def regenerated_text(current: str, flavor_name: str, section: Section) -> str:
    from rocke.arch import parse_arch_domain, render_arch_domain

    sections = parse_arch_domain(current) if current.strip() else {}
    sections[flavor_name] = section
    return render_arch_domain(sections)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 with a diff if the file would change")
    parser.add_argument("--flavor", default=None, help="flavor to probe (default: the running LLVM's)")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="arch_domain.toml to write or check")
    args = parser.parse_args(argv)

    from rocke.isa import ToolchainError, running_flavor

    flavor = args.flavor or running_flavor()
    if flavor is None:
        print("probe_arch_domain: the running LLVM validates no rocke flavor", file=sys.stderr)
        return 2
    try:
        section = probe_section(flavor)
    except (TableError, ToolchainError, ValueError) as exc:
        print(f"probe_arch_domain: {exc}", file=sys.stderr)
        return 2
    current = args.file.read_text(encoding="utf-8") if args.file.exists() else ""
    text = regenerated_text(current, flavor, section)
    absent = sum(1 for _, statuses in section for status in statuses if status != "ok")
    summary = f"{args.file.name} [{flavor}]: {len(section)} intrinsics, {absent} (intrinsic, arch) pairs not ok"
    if args.check:
        if text == current:
            print(f"{summary}; up to date")
            return 0
        diff = difflib.unified_diff(current.splitlines(keepends=True), text.splitlines(keepends=True),
                                    str(args.file), f"{args.file} (regenerated)")
        sys.stdout.writelines(diff)
        print(f"{summary}; regeneration would change the file", file=sys.stderr)
        return 1
    if text != current:
        args.file.write_text(text, encoding="utf-8", newline="\n")
        print(f"{summary}; written")
    else:
        print(f"{summary}; unchanged")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    sys.exit(main())
