"""rocke.cli: the ``rocke`` command."""

from rocke.cli.app import main

__all__ = ["main"]
