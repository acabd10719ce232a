"""``python -m rocke``: ``--cmake-dir`` for C++ consumers, otherwise the ``rocke`` CLI."""

from __future__ import annotations

import sys


def _main(argv: list[str]) -> int:
    if argv == ["--cmake-dir"]:
        import rocke
        from rocke.sdk import print_cmake_dir

        return print_cmake_dir("rocke", rocke.cmake_dir)
    from rocke.cli import main

    return main(argv)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
