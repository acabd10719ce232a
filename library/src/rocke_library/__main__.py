"""``python -m rocke_library --cmake-dir``: where C++ hosts find ``rocke_libraryConfig.cmake``."""

from __future__ import annotations

import sys

USAGE = "usage: python -m rocke_library --cmake-dir"


def _main(argv: list[str]) -> int:
    if argv == ["--cmake-dir"]:
        import rocke_library

        try:
            print(rocke_library.cmake_dir())
        except FileNotFoundError as exc:
            print(f"rocke_library: {exc}", file=sys.stderr)
            return 1
        return 0
    if argv in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
