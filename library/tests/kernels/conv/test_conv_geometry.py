"""Shared conv geometry: output sizes of a window over an input."""

from __future__ import annotations

from rocke_library.kernels.conv.geometry import output_hw, output_size
from rocke_library.kernels.conv.img2col import Img2colSpec

IMG2COL = Img2colSpec.from_kv("block=256 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 "
                              "stride_h=2 stride_w=2 vec=8")


def test_output_sizes() -> None:
    assert output_size(224, 7, 2, 3, 1) == 112
    assert output_size(56, 3, 1, 1, 1) == 56
    assert output_size(56, 3, 2, 1, 1) == 28
    assert output_size(7, 3, 1, 2, 2) == 7
    assert output_size(2, 5, 1, 0, 1) == 0
    assert output_hw(IMG2COL, 15, 16) == (8, 8)
