"""``python -m rocke_library --cmake-dir``: where C++ hosts find ``rocke_libraryConfig.cmake``."""

from __future__ import annotations

import sys

USAGE = "usage: python -m rocke_library --cmake-dir"


def _main(argv: list[str]) -> int:
    if argv == ["--cmake-dir"]:
        import rocke_library
        from rocke.sdk import print_cmake_dir

        return print_cmake_dir("rocke_library", rocke_library.cmake_dir)
    if argv in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
