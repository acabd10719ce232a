"""``python -m rocke``: ``--cmake-dir`` for C++ consumers, otherwise the ``rocke`` CLI."""

from __future__ import annotations

import sys


def _main(argv: list[str]) -> int:
    if argv == ["--cmake-dir"]:
        import rocke

        try:
            print(rocke.cmake_dir())
        except FileNotFoundError as exc:
            print(f"rocke: {exc}", file=sys.stderr)
            return 1
        return 0
    from rocke.cli import main

    return main(argv)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
