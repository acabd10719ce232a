"""Fuzz the C++ parser, verifier, lowerer, config reader, spec parsers and family builder twins under
AddressSanitizer + UndefinedBehaviorSanitizer.

    python platform/tools/sanitize_fuzz.py                  # build, write the corpora, run them
    python platform/tools/sanitize_fuzz.py --inputs 8000 --seed 7 --keep-corpus /tmp/corpus
    python platform/tools/sanitize_fuzz.py --project library   # also a project built on rocke::core

1. Configures platform's CMake project with -DROCKE_SANITIZE=ON in its own build directory
   (default platform/build/sanitize; incremental on later runs) and builds the file-reading driver
   rocke_lower_fuzz_test plus the ctest programs of the lowerer and the emitter.
2. Writes a corpus: the sample kernels of rocke.ir.samples and the op-coverage kernels of
   platform/tests/test_lower_llvm.py as rocke.ir/1 text, the hostile inputs of
   rocke.ir.adversarial at two sizes, and random mutations of the kernels (numbers,
   types and opcodes swapped, characters replaced, spans deleted, lines dropped or repeated,
   truncations), --inputs files in all.
3. Runs the driver over the corpus (every input through parse_kernel, verify on every arch and
   lower on every arch and flavor; only ParseError, VerifyError and LowerError may escape), then
   the lowerer's and emitter's ctest programs, sanitized. Leak checking is on; any sanitizer
   report fails the run.

4. Family twins (platform's, and each --project's): the golden check of every family's config
   file through its native emitter (`--check-golden`: the config reader, every builder twin, the
   printer and the lowerer on every config, sha256 and the JSON reader); a config corpus
   (--config-inputs files of one to three lines: config lines of every family's config file with
   values swapped for extremes, keys dropped, repeated or taken from another family, characters
   replaced, CR/tab/NUL/non-ASCII bytes, truncations) through every family's config reader, spec
   parser and builder twin (rocke_configs_fuzz_test and the project's *_configs_fuzz_test); and
   each project's twins from 4 threads at once (`--threads 4`).

A --project DIR is a CMake project that links rocke::core and has platform's layout: emitters in
cpp/tools/, a cpp/tests/*_configs_fuzz_test.cpp driver, config files <family>.cfg under src/. It is
configured against this sanitized build's core (-Drocke_DIR=<build dir>, the build-tree package).

Exit status 0 when everything is clean, 1 otherwise (the report names what failed). Needs cmake,
ninja and pybind11 (the wheel's build requirements) and a C++20 compiler with the sanitizers.
On 2 cores the first run takes about 3 minutes, half of it the sanitized build; later runs reuse
the build directory.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PLATFORM = Path(__file__).resolve().parents[1]
DEFAULT_BUILD_DIR = PLATFORM / "build" / "sanitize"
DRIVER = "rocke_lower_fuzz_test"
CTESTS = ("rocke_lower_test", "rocke_emit_test", "rocke_lower_threads_test")
CONFIG_DRIVER = "rocke_configs_fuzz_test"
EMITTER = "rocke-emit"
# -O0 compiles fastest, and a cold build dominates a CI run (-O1 runs the corpus ten times faster
# but takes minutes longer to build). -g1 gives sanitizer reports file and line.
SANITIZE_FLAGS = "-O0 -g1"
SANITIZER_REPORT = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY: \w+Sanitizer")
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    "LSAN_OPTIONS": "exitcode=23",
}

# Plausible attribute values (which keep the text parseable and reach the verifier's and the
# lowerer's limits: LDS sizes, shuffle masks, alignments, waitcnt counts) and, less often, extremes.
NUMBERS = ("0", "1", "-1", "2", "3", "4", "7", "8", "15", "16", "31", "32", "33", "63", "64", "128", "255", "1024",
           "4096", "16384", "40960", "65536")
EXTREMES = ("70000", "2147483647", "-2147483648", "9223372036854775807", "99999999999999999999",
            "0x3FF0000000000000", "0x7FF8000000000000")
TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "vec<f16x3>", "vec<f16x4>", "vec<f32x3>",
         "vec<bf16x8>", "vec<i8x2>", "vec<i32x4>", "ptr<f32, lds>", "ptr<f16, global>", "ptr<i32, constant>", "rsrc")
TOKENS = ("{", "}", "(", ")", "<", ">", ",", ":", "=", "%", "@", '"', "\n", " ", "\t", "\x00", "\xff", "%0",
          "%999999999", "scf.yield", "} else {", "vec<", "ptr<", "rocke.ir/2", "bogus.op")
NUMBER = re.compile(r"(?<![%\w.])-?\d+(?![\w.])|0x[0-9A-F]{16}")
TYPE = re.compile(r"ptr<[^>]*>|vec<[^>]*>|\b(?:i1|i8|i16|i32|i64|f16|bf16|f32|rsrc)\b")
OPCODE = re.compile(r"\b[a-z]+\.[a-z_0-9]+\b")


def _tool(module: str, name: str) -> str:
    """The cmake / ninja binary: from its PyPI package when installed, else from PATH."""
    try:
        package = __import__(module)
        folder = package.CMAKE_BIN_DIR if module == "cmake" else package.BIN_DIR
        return str(Path(folder) / name)
    except ImportError:
        found = shutil.which(name)
        if not found:
            raise SystemExit(f"sanitize_fuzz: {name} not found (pip install {module})") from None
        return found


def build(build_dir: Path, jobs: int) -> None:
    try:
        import pybind11
    except ImportError:
        raise SystemExit("sanitize_fuzz: pybind11 not found (pip install pybind11); CMake needs it") from None
    cmake = _tool("cmake", "cmake")
    configure = [cmake, "-S", str(PLATFORM), "-B", str(build_dir), "-G", "Ninja",
                 f"-DCMAKE_MAKE_PROGRAM={_tool('ninja', 'ninja')}", "-DROCKE_SANITIZE=ON",
                 "-DCMAKE_BUILD_TYPE=Sanitize", f"-DCMAKE_CXX_FLAGS_SANITIZE={SANITIZE_FLAGS}",
                 f"-DPython_EXECUTABLE={sys.executable}", f"-Dpybind11_DIR={pybind11.get_cmake_dir()}"]
    subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([cmake, "--build", str(build_dir), "--parallel", str(jobs), "--target", DRIVER, *CTESTS,
                    CONFIG_DRIVER, EMITTER], check=True)


@dataclass(frozen=True)
class Project:
    """A CMake project on rocke::core (e.g. library/): its emitters, config driver and families."""

    root: Path
    build_dir: Path
    emitters: tuple[str, ...]
    driver: str
    families: tuple[str, ...]

    @staticmethod
    def find(root: Path, build_dir: Path) -> Project:
        root = root.resolve()
        emitters = tuple(sorted(p.stem for p in (root / "cpp" / "tools").glob("*.cpp")))
        drivers = sorted(p.stem for p in (root / "cpp" / "tests").glob("*_configs_fuzz_test.cpp"))
        if not emitters or len(drivers) != 1:
            raise SystemExit(f"sanitize_fuzz: {root} needs cpp/tools/*.cpp and one cpp/tests/*_configs_fuzz_test.cpp")
        return Project(root, build_dir / f"project-{root.name}", emitters, drivers[0], family_names(root))


def family_names(root: Path) -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (root / "src").rglob("*.cfg")))


def build_project(project: Project, core_build: Path, jobs: int) -> None:
    """The project, sanitized, linking this build's sanitized core through the build-tree package."""
    import pybind11

    cmake = _tool("cmake", "cmake")
    flags = f"{SANITIZE_FLAGS} -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
    configure = [cmake, "-S", str(project.root), "-B", str(project.build_dir), "-G", "Ninja",
                 f"-DCMAKE_MAKE_PROGRAM={_tool('ninja', 'ninja')}", "-DCMAKE_BUILD_TYPE=Sanitize",
                 f"-DCMAKE_CXX_FLAGS_SANITIZE={flags}", "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined",
                 "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined", f"-Drocke_DIR={core_build}",
                 f"-DPython_EXECUTABLE={sys.executable}", f"-Dpybind11_DIR={pybind11.get_cmake_dir()}"]
    subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([cmake, "--build", str(project.build_dir), "--parallel", str(jobs), "--target", *project.emitters,
                    project.driver], check=True)


def _replace_one(rng: random.Random, text: str, pattern: re.Pattern[str], choices: tuple[str, ...]) -> str:
    matches = list(pattern.finditer(text, text.find("\n") + 1))  # the version line stays
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + rng.choice(choices) + text[m.end():]


def mutate(rng: random.Random, text: str, opcodes: tuple[str, ...]) -> str:
    """One to three edits; half of them keep the syntax (a number, type or opcode swapped)."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        kind = rng.randrange(12)
        pos = rng.randrange(len(text) + 1)
        if kind <= 4:
            text = _replace_one(rng, text, NUMBER, EXTREMES if rng.random() < 0.15 else NUMBERS)
        elif kind == 5:
            text = _replace_one(rng, text, TYPE, TYPES)
        elif kind == 6:
            text = _replace_one(rng, text, OPCODE, opcodes)
        elif kind == 7:
            text = text[:pos] + rng.choice((chr(rng.randrange(256)), rng.choice(TOKENS))) + text[pos + 1:]
        elif kind == 8:
            text = text[:pos] + text[pos + rng.randint(1, 40):]
        elif kind == 9:
            text = text[:pos]
        else:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            if kind == 10:
                lines.insert(i, lines[i])
            else:
                del lines[i]
            text = "\n".join(lines)
    return text


def seed_texts() -> tuple[list[str], tuple[str, ...]]:
    """The sample kernels and (when the tests are present) the op-coverage corpus, and every opcode."""
    sys.path.insert(0, str(PLATFORM / "src"))
    from rocke.ir import OPS, print_kernel
    from rocke.ir.samples import sample_kernels

    kernels = list(sample_kernels().values())
    try:
        sys.path.insert(0, str(PLATFORM / "tests"))
        from test_lower_llvm import corpus

        kernels += list(corpus().values())
    except ImportError as exc:  # pytest missing: the samples alone still cover every op family
        print(f"sanitize_fuzz: op-coverage corpus unavailable ({exc}); using the samples only")
    return [print_kernel(k) for k in kernels], tuple(op.name for op in OPS)


ADVERSARIAL_SIZES = (256, 1 << 16)


def adversarial_texts() -> dict[str, str]:
    """rocke.ir.adversarial's hostile inputs (long lines of one character, huge operand, result and
    attribute lists, unterminated strings) at a small and a large size."""
    sys.path.insert(0, str(PLATFORM / "src"))
    from rocke.ir.adversarial import adversarial_inputs

    return {f"{name}_{size}": text for size in ADVERSARIAL_SIZES for name, text in adversarial_inputs(size).items()}


def write_corpus(folder: Path, inputs: int, seed: int) -> int:
    texts, opcodes = seed_texts()
    rng = random.Random(seed)
    count = 0
    for text in texts:
        (folder / f"seed_{count:05d}.ir").write_bytes(text.encode("latin-1"))
        count += 1
    for name, text in adversarial_texts().items():
        (folder / f"adv_{name}.ir").write_bytes(text.encode("latin-1"))
        count += 1
    while count < inputs:
        text = mutate(rng, rng.choice(texts), opcodes)
        (folder / f"mut_{count:05d}.ir").write_bytes(text.encode("utf-8", "surrogatepass"))
        count += 1
    return count


# Config-line mutations: values a spec parser must refuse cleanly (or, when in range, build).
CONFIG_VALUES = ("0", "1", "-1", "2", "3", "7", "8", "16", "64", "255", "256", "1024", "65536", "2147483647",
                 "2147483648", "-2147483648", "9223372036854775807", "9223372036854775808", "-0", "01", "1e3", "",
                 "f16", "bf16", "f32", "i8", "fp8", "x", "..", "-", "_", "0x10")
CONFIG_TOKENS = (" ", "  ", "=", "==", "\t", "\r", "\x00", "\xff", "\u00e9", "refuse ", "#", "gfx942 ", "gfx9999 ")


def config_lines(roots: list[Path]) -> list[str]:
    lines = []
    for root in roots:
        for path in sorted((root / "src").rglob("*.cfg")):
            text = path.read_text(encoding="ascii")
            lines += [line for line in text.split("\n") if line and not line.startswith("#")]
    return lines


def mutate_config_line(rng: random.Random, line: str, lines: list[str]) -> str:
    words = line.split(" ")
    for _ in range(rng.choice((1, 1, 2, 3))):
        kind = rng.randrange(10)
        pairs = [i for i, word in enumerate(words) if "=" in word]
        if kind <= 3 and pairs:
            i = rng.choice(pairs)
            words[i] = words[i].partition("=")[0] + "=" + rng.choice(CONFIG_VALUES)
        elif kind == 4 and pairs:
            del words[rng.choice(pairs)]
        elif kind == 5 and pairs:
            words.insert(rng.randrange(len(words) + 1), words[rng.choice(pairs)])
        elif kind == 6:
            other = rng.choice(lines).split(" ")
            words.insert(rng.randrange(len(words) + 1), rng.choice(other))
        elif kind == 7:
            text = " ".join(words)
            pos = rng.randrange(len(text) + 1)
            words = (text[:pos] + rng.choice(CONFIG_TOKENS) + text[pos + 1:]).split(" ")
        elif kind == 8:
            text = " ".join(words)
            words = text[: rng.randrange(len(text) + 1)].split(" ")
        else:
            rng.shuffle(words)
    return " ".join(words)


def write_config_corpus(folder: Path, roots: list[Path], inputs: int, seed: int) -> int:
    lines = config_lines(roots)
    rng = random.Random(seed)
    for count in range(inputs):
        picked = [mutate_config_line(rng, rng.choice(lines), lines) if rng.random() < 0.9 else rng.choice(lines)
                  for _ in range(rng.choice((1, 1, 2, 3)))]
        text = "\n".join(picked) + rng.choice(("\n", "", "\n\n"))
        (folder / f"cfg_{count:05d}.cfg").write_bytes(text.encode("utf-8", "surrogatepass"))
    return inputs


def _report(proc: subprocess.CompletedProcess[str], what: str) -> bool:
    report = SANITIZER_REPORT.search(proc.stderr)
    ok = proc.returncode == 0 and report is None
    tail = (proc.stdout.strip().splitlines() or [""])[-2:]
    print(f"sanitize_fuzz: {what}: {'clean' if ok else 'FAILED'} ({' / '.join(tail)})")
    if not ok:
        sys.stdout.write(proc.stderr[-6000:])
    return ok


def run_checked(cmd: list[str], what: str, cwd: Path = PLATFORM) -> bool:
    env = {**os.environ, **SANITIZER_ENV}
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, errors="replace", check=False)
    return _report(proc, what)


def run_corpus(driver: Path, folder: Path, jobs: int, pattern: str = "*.ir", cwd: Path = PLATFORM) -> bool:
    """The corpus split over `jobs` driver processes running side by side."""
    files = sorted(str(path) for path in folder.glob(pattern))
    env = {**os.environ, **SANITIZER_ENV}
    procs = []
    for part in range(jobs):
        chunk = files[part::jobs]
        if chunk:
            procs.append((len(chunk), subprocess.Popen([str(driver), *chunk], cwd=cwd, env=env, text=True,
                                                       errors="replace", stdout=subprocess.PIPE,
                                                       stderr=subprocess.PIPE)))
    ok = True
    for count, proc in procs:
        out, err = proc.communicate()
        done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        ok = _report(done, f"{driver.name}: {count} corpus inputs") and ok
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, default=DEFAULT_BUILD_DIR)
    parser.add_argument("--inputs", type=int, default=3000, help="corpus size (seeds plus mutations)")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--config-inputs", type=int, default=400, help="config corpus size")
    parser.add_argument("--project", type=Path, action="append", default=[],
                        help="another CMake project on rocke::core to build sanitized and run (repeatable)")
    parser.add_argument("--keep-corpus", type=Path, help="write the corpus here and keep it")
    args = parser.parse_args(argv)
    args.build_dir = args.build_dir.resolve()  # the drivers run from the project directories

    start = time.perf_counter()
    build(args.build_dir, args.jobs)
    projects = [Project.find(root, args.build_dir) for root in args.project]
    for project in projects:
        build_project(project, args.build_dir, args.jobs)
    print(f"sanitize_fuzz: sanitized build ready in {time.perf_counter() - start:.0f} s ({args.build_dir})")
    with tempfile.TemporaryDirectory(prefix="rocke_fuzz_") as scratch:
        folder = args.keep_corpus or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        count = write_corpus(folder, args.inputs, args.seed)
        ok = run_corpus(args.build_dir / DRIVER, folder, args.jobs)
        print(f"sanitize_fuzz: corpus of {count} inputs done")
        section = time.perf_counter()
        configs = write_config_corpus(folder, [PLATFORM, *(p.root for p in projects)], args.config_inputs, args.seed)
        ok = run_corpus(args.build_dir / CONFIG_DRIVER, folder, args.jobs, "*.cfg") and ok
        for project in projects:
            ok = run_corpus(project.build_dir / project.driver, folder, args.jobs, "*.cfg", project.root) and ok
        print(f"sanitize_fuzz: config corpus of {configs} inputs done in {time.perf_counter() - section:.0f} s")
    for name in CTESTS:
        ok = run_checked([str(args.build_dir / name)], name) and ok
    section = time.perf_counter()
    for family in family_names(PLATFORM):
        ok = run_checked([str(args.build_dir / EMITTER), "--check-golden", "--family", family, "--root", "src"],
                         f"{EMITTER} --check-golden {family}") and ok
    for project in projects:
        emitter = project.build_dir / project.emitters[0]
        for family in project.families:
            ok = run_checked([str(emitter), "--check-golden", "--family", family, "--root", "src"],
                             f"{emitter.name} --check-golden {family}", project.root) and ok
        ok = run_checked([str(project.build_dir / project.driver), "--threads", "4"],
                         f"{project.driver} --threads 4", project.root) and ok
    print(f"sanitize_fuzz: family twins done in {time.perf_counter() - section:.0f} s")
    print(f"sanitize_fuzz: {'clean' if ok else 'FAILED'} in {time.perf_counter() - start:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
