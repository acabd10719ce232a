"""PTX -> cubin with NVIDIA's ``ptxas``, and the resources its ``-v`` report states.

``ptxas`` comes from the ``nvidia-cuda-nvcc-cu12`` wheel (it runs without a GPU). Sources, per
field of :class:`NvidiaResources` (see platform/docs/toolchain.md):

* ``ptxas -v`` stderr: ``Compiling entry function 'K' for 'sm_90'``, then ``N bytes stack frame,
  N bytes spill stores, N bytes spill loads`` and ``Used N registers, used N barriers, N bytes
  smem``: registers, spills, stack frame, barriers and static shared memory per entry.
* the cubin's ELF section headers: ``.nv.constant0.K`` (the kernel's parameter bank) and the other
  ``.nv.constant<bank>`` sections (``.const`` data), whose bytes ptxas 12.9 no longer prints.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import struct
import subprocess
import tempfile
from dataclasses import dataclass, fields, replace
from pathlib import Path

from rocke.isa.errors import PtxasError, PtxasNotFoundError, ResourceParseError
from rocke.isa.targets import shared_bytes_limit
from rocke.isa.toolchains import toolchain_table

#: Environment variable naming an explicit ptxas to use.
PTXAS_ENV = "ROCKE_PTXAS"
PTXAS_INSTALL_HINT = "pip install nvidia-cuda-nvcc-cu12"
#: Seconds ptxas may run on one module.
PTXAS_TIMEOUT = 600.0

_INT = r"([0-9]{1,18})"
_ENTRY_RE = re.compile(r"^ptxas info\s*: Compiling entry function '([^']+)' for '([^']+)'\s*$")
_PROPS_RE = re.compile(r"^ptxas info\s*: Function properties for (\S+)\s*$")
_FRAME_RE = re.compile(
    rf"^\s*{_INT} bytes stack frame, {_INT} bytes spill stores, {_INT} bytes spill loads\s*$"
)
_USED_RE = re.compile(rf"^ptxas info\s*: Used {_INT} registers(.*)$")
_BARRIERS_RE = re.compile(rf"^used {_INT} barriers$")
_SMEM_RE = re.compile(rf"^{_INT} bytes smem$")

_ELF_MAGIC = b"\x7fELF"
_EM_CUDA = 190
_CONST_RE = re.compile(r"^\.nv\.constant([0-9]{1,3})(?:\.(.+))?$")


@dataclass(frozen=True)
class NvidiaResources:
    """What one kernel (PTX ``.entry``) costs on an NVIDIA ``arch``, as ptxas compiled it.

    ``registers`` per thread; ``spill_store_bytes`` / ``spill_load_bytes`` the register spills to
    local memory; ``stack_frame_bytes`` the per-thread local memory frame (spills and private
    arrays); ``shared_bytes`` the static shared memory; ``barriers`` the named barriers used;
    ``constant_bytes`` the user constant banks (module ``.const`` data, bank 3 here) and
    ``param_bytes`` the kernel's parameter bank (bank 0, the driver's header plus the arguments).
    """

    kernel: str
    arch: str
    registers: int
    spill_store_bytes: int
    spill_load_bytes: int
    stack_frame_bytes: int
    shared_bytes: int
    constant_bytes: int
    param_bytes: int
    barriers: int
    occupancy: int = 0  # resident warps per SM sub-partition (rocke.arch.occupancy); 0 until a caller
    # that knows the block size sets it (`with_occupancy`)

    def with_occupancy(self, block_threads: int) -> NvidiaResources:
        """These resources with the occupancy of a `block_threads`-thread block: the CUDA rules as
        rocke.arch.occupancy models them (registers per thread in units of 8, shared memory plus the
        1 KiB the system reserves per block, 32 blocks and 64 warps per SM)."""
        from rocke.arch import occupancy

        warps = occupancy(self.arch, vgprs=self.registers, sgprs=0, lds_bytes=self.shared_bytes,
                          workgroup_size=block_threads)
        return replace(self, occupancy=warps)

    def to_dict(self) -> dict[str, str | int]:
        """Fields in declaration order, JSON-ready."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class PtxasResult:
    """One ptxas run: the cubin, ptxas's report (stderr and stdout) and each kernel's resources."""

    cubin: bytes
    log: str
    resources: tuple[NvidiaResources, ...]

    def kernel(self, name: str | None = None) -> NvidiaResources:
        """Resources of the named kernel, or of the only one."""
        return _pick(self.resources, name)


def _wheel_ptxas() -> str | None:
    try:
        spec = importlib.util.find_spec("nvidia.cuda_nvcc")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = os.path.join(location, "bin", "ptxas")
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def find_ptxas() -> str | None:
    """Path of the ptxas to use, or None.

    Search order: ``$ROCKE_PTXAS`` (a path or a name on PATH; if set, nothing else is tried), the
    ``nvidia-cuda-nvcc-cu12`` wheel's ``nvidia/cuda_nvcc/bin/ptxas`` in this environment,
    ``ptxas`` on PATH.
    """
    explicit = os.environ.get(PTXAS_ENV)
    if explicit:
        return shutil.which(explicit)
    return _wheel_ptxas() or shutil.which("ptxas")


def _require_ptxas(ptxas: str | None) -> str:
    found = ptxas or find_ptxas()
    if found is not None:
        return found
    if os.environ.get(PTXAS_ENV):
        raise PtxasNotFoundError(
            f"ptxas not found: {PTXAS_ENV}={os.environ[PTXAS_ENV]} is not an executable "
            f"(unset it to use the wheel's: {PTXAS_INSTALL_HINT})"
        )
    raise PtxasNotFoundError(f"ptxas not found: {PTXAS_INSTALL_HINT}")


def run_ptxas(
    ptx_text: str,
    cpu: str,
    *,
    ptxas: str | None = None,
    arch: str | None = None,
    timeout: float | None = PTXAS_TIMEOUT,
) -> PtxasResult:
    """Assemble PTX into a cubin: ``ptxas -arch=<cpu> -O<level> -v --warn-on-spills`` in a temp dir.

    ``cpu`` is ptxas's ``-arch`` (``sm_90``); ``arch`` (default ``cpu``) names the resources.
    Raises ``PtxasNotFoundError`` without a ptxas (the message gives ``pip install
    nvidia-cuda-nvcc-cu12``), ``PtxasError`` carrying ptxas's message when it fails or runs past
    ``timeout`` seconds, and ``ResourceParseError`` if its report or cubin cannot be read.
    """
    if not cpu or any(ch.isspace() for ch in cpu):
        raise ValueError(f"cpu must be one word such as sm_90, not {cpu!r}")
    arch = arch or cpu
    tool = _require_ptxas(ptxas)
    level = toolchain_table().nvptx.ptxas_opt_level
    with tempfile.TemporaryDirectory(prefix="rocke-ptxas-") as tmp:
        ptx_path = Path(tmp) / "kernel.ptx"
        out_path = Path(tmp) / "kernel.cubin"
        ptx_path.write_text(ptx_text, encoding="utf-8")
        command = [tool, f"-arch={cpu}", f"-O{level}", "-v", "--warn-on-spills", str(ptx_path), "-o", str(out_path)]
        try:
            proc = subprocess.run(command, capture_output=True, text=True, check=False, timeout=timeout)
        except OSError as exc:
            raise PtxasNotFoundError(f"ptxas could not be run ({tool}): {exc.strerror}") from None
        except subprocess.TimeoutExpired:
            raise PtxasError(f"no result after {timeout:g} s", arch=arch, returncode=-9) from None
        log = (proc.stderr + proc.stdout).replace(str(ptx_path), "kernel.ptx")
        if proc.returncode != 0:
            raise PtxasError(log.strip(), arch=arch, returncode=proc.returncode)
        cubin = out_path.read_bytes()
    return PtxasResult(cubin=cubin, log=log, resources=ptxas_resources(log, cubin, arch, cpu=cpu))


def _int(text: str) -> int:
    return int(text)


def _used_items(kernel: str, rest: str) -> tuple[int, int]:
    """(barriers, shared bytes) from the ``, used N barriers, N bytes smem, ...`` tail."""
    barriers = shared = None
    for item in (part.strip() for part in rest.split(",")):
        if not item:
            continue
        match = _BARRIERS_RE.match(item)
        if match:
            barriers = _int(match.group(1))
            continue
        match = _SMEM_RE.match(item)
        if match:
            shared = _int(match.group(1))
    if barriers is None:
        raise ResourceParseError(f"kernel {kernel}: the ptxas report states no barrier count")
    return barriers, shared or 0


def ptxas_report(log: str, cpu: str) -> dict[str, dict[str, int]]:
    """Per entry of ``ptxas -v``'s report, in its order: registers, spills, stack frame, barriers, smem."""
    entries: dict[str, dict[str, int]] = {}
    frames: dict[str, tuple[int, int, int]] = {}
    current: str | None = None
    props: str | None = None
    for line in log.split("\n"):
        match = _ENTRY_RE.match(line)
        if match:
            current, target = match.group(1), match.group(2)
            if target != cpu:
                raise ResourceParseError(f"ptxas compiled entry {current} for {target}, not {cpu}")
            entries[current] = {}
            continue
        match = _PROPS_RE.match(line)
        if match:
            props = match.group(1)
            continue
        match = _FRAME_RE.match(line)
        if match and props is not None:
            frames[props] = (_int(match.group(1)), _int(match.group(2)), _int(match.group(3)))
            props = None
            continue
        match = _USED_RE.match(line)
        if match:
            if current is None:
                raise ResourceParseError("the ptxas report states registers outside any entry function")
            barriers, shared = _used_items(current, match.group(2))
            entries[current].update(registers=_int(match.group(1)), barriers=barriers, shared_bytes=shared)
    if not entries:
        raise ResourceParseError("the ptxas report names no entry function (was ptxas run with -v?)")
    for name, entry in entries.items():
        if "registers" not in entry:
            raise ResourceParseError(f"kernel {name}: the ptxas report states no register count")
        if name not in frames:
            raise ResourceParseError(f"kernel {name}: the ptxas report states no stack frame and spills")
        entry["stack_frame_bytes"], entry["spill_store_bytes"], entry["spill_load_bytes"] = frames[name]
    return entries


def cubin_constant_banks(cubin: bytes) -> dict[tuple[int, str], int]:
    """Sizes of the cubin's ``.nv.constant<bank>[.<kernel>]`` sections: (bank, kernel or "") -> bytes."""
    if len(cubin) < 64 or not cubin.startswith(_ELF_MAGIC) or cubin[4] != 2 or cubin[5] != 1:
        raise ResourceParseError("the cubin is not a 64-bit little-endian ELF file")
    machine = struct.unpack_from("<H", cubin, 18)[0]
    if machine != _EM_CUDA:
        raise ResourceParseError(f"the cubin's ELF machine is {machine}, not EM_CUDA ({_EM_CUDA})")
    shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    if shentsize != 64 or shstrndx >= shnum or shoff + shnum * 64 > len(cubin):
        raise ResourceParseError("the cubin's ELF section headers are malformed")
    headers = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * 64) for i in range(shnum)]
    names_at, names_size = headers[shstrndx][4], headers[shstrndx][5]
    if names_at + names_size > len(cubin):
        raise ResourceParseError("the cubin's section name table is out of bounds")
    names = cubin[names_at : names_at + names_size]
    banks: dict[tuple[int, str], int] = {}
    for header in headers:
        start = header[0]
        end = names.find(b"\0", start)
        if start >= len(names) or end < 0:
            raise ResourceParseError("the cubin names a section outside its name table")
        match = _CONST_RE.match(names[start:end].decode("ascii", errors="replace"))
        if match:
            banks[(int(match.group(1)), match.group(2) or "")] = header[5]
    return banks


def ptxas_resources(log: str, cubin: bytes, arch: str, *, cpu: str | None = None) -> tuple[NvidiaResources, ...]:
    """Resources of every entry in ptxas's ``-v`` report (in its order), constants from the cubin."""
    report = ptxas_report(log, cpu or arch)
    banks = cubin_constant_banks(cubin)
    module_constants = sum(size for (bank, owner), size in banks.items() if bank != 0 and not owner)
    out = []
    for name, entry in report.items():
        own = sum(size for (bank, owner), size in banks.items() if bank != 0 and owner == name)
        if (0, name) not in banks:
            raise ResourceParseError(f"kernel {name}: the cubin has no parameter bank .nv.constant0.{name}")
        out.append(
            NvidiaResources(
                kernel=name,
                arch=arch,
                registers=entry["registers"],
                spill_store_bytes=entry["spill_store_bytes"],
                spill_load_bytes=entry["spill_load_bytes"],
                stack_frame_bytes=entry["stack_frame_bytes"],
                shared_bytes=entry["shared_bytes"],
                constant_bytes=module_constants + own,
                param_bytes=banks[(0, name)],
                barriers=entry["barriers"],
            )
        )
    return tuple(out)


def _pick(found: tuple[NvidiaResources, ...], kernel: str | None) -> NvidiaResources:
    names = ", ".join(r.kernel for r in found)
    if kernel is None:
        if len(found) != 1:
            raise ResourceParseError(f"the cubin holds {len(found)} kernels ({names}); name one")
        return found[0]
    for res in found:
        if res.kernel == kernel:
            return res
    raise ResourceParseError(f"no kernel {kernel} in the cubin (kernels: {names})")


def kernel_resources(ptx_text: str, cpu: str, *, arch: str) -> NvidiaResources:
    """The one kernel of ``ptx_text`` assembled by ptxas, with the occupancy of the block size the
    PTX bounds it to (``.maxntid``, which rocke.lower writes for every kernel). Raises the errors of
    :func:`run_ptxas`, and ``ResourceParseError`` for PTX naming no ``.maxntid``."""
    bound = re.search(r"^\.maxntid\s+(\d+)", ptx_text, flags=re.MULTILINE)
    if bound is None:
        raise ResourceParseError("the PTX names no .maxntid")
    (res,) = run_ptxas(ptx_text, cpu, arch=arch).resources
    return res.with_occupancy(int(bound.group(1)))


#: Why an NVIDIA kernel cannot ship, in the order :func:`nvidia_refusal_reason` checks them (the
#: names of ``REFUSAL_REASONS``: local memory is NVIDIA's scratch, shared memory its LDS).
NVIDIA_REFUSAL_REASONS: tuple[str, ...] = ("spills", "scratch", "lds_over_capacity")


def nvidia_refusal_reason(res: NvidiaResources) -> str | None:
    """Why ``res`` cannot ship, or None when it can.

    ``spills``: ptxas spilled registers to local memory (spill store or load bytes above 0);
    ``scratch``: a local memory stack frame without spills (a private array or a call stack);
    ``lds_over_capacity``: more shared memory than one thread block may use on the arch.
    """
    if res.spill_store_bytes > 0 or res.spill_load_bytes > 0:
        return "spills"
    if res.stack_frame_bytes > 0:
        return "scratch"
    if res.shared_bytes > shared_bytes_limit(res.arch):
        return "lds_over_capacity"
    return None
