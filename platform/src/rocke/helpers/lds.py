"""Padded LDS tiles: `rows` lines of `cols` elements, each line padded to `cols + pad` elements
(padding shifts consecutive lines across banks), optionally in several stages (multi-buffering).
Element (stage, row, col) sits at stage * stage_elems + row * stride + col."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.ir import Builder, ScalarType, Value

LDS_ALIGN = 16  # bytes; every tile starts on a 16-byte boundary, the widest LDS access


@dataclass(frozen=True)
class PaddedTile:
    rows: int
    cols: int
    pad: int
    stages: int

    @property
    def stride(self) -> int:
        return self.cols + self.pad

    @property
    def stage_elems(self) -> int:
        return self.rows * self.stride

    @property
    def count(self) -> int:
        return self.stages * self.stage_elems

    def nbytes(self, esize: int) -> int:
        """Bytes allocated, rounded up to the allocation alignment."""
        raw = self.count * esize
        return -(-raw // LDS_ALIGN) * LDS_ALIGN


def alloc_tile(b: Builder, tile: PaddedTile, elem: ScalarType, *, name: str) -> Value:
    """The LDS allocation holding every stage of the tile."""
    return b.lds_alloc(elem, tile.count, align=LDS_ALIGN, name=name)
