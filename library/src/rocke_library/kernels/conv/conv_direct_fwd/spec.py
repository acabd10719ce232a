"""The conv_direct_fwd spec: direct forward convolution, NHWC x KYXC -> NHWK, f32 accumulation."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import Spec, check_dtype, check_threads, check_vec

from ..geometry import check_window

THREAD_K_CHOICES = (1, 2, 4, 8)
MAX_THREAD_P = 16
MAX_ACCUMULATORS = 64  # f32 accumulators per thread (registers)
MAX_TILE_K = 256
MAX_TILE_P = 1024


@dataclass(frozen=True)
class ConvDirectFwdSpec(Spec):
    """y[n, oh, ow, k] = act(bias[k] + sum over taps and the group's channels of x * w).

    dtype: storage of input, weights, bias and output (math in f32). A workgroup computes tile_p
    output pixels x tile_k output channels of one group; each thread thread_p pixels (strided by
    tile_p / thread_p) x thread_k consecutive channels. vec: channels per vector access -- along
    the reduction (C per group) in the grouped kernel, along the thread's channels when depthwise
    (groups = C = K). bias adds bias[k]; relu clamps at zero after the bias. The window fields as
    in img2col."""

    FAMILY = "conv_direct_fwd"

    bias: bool
    depthwise: bool
    dil_h: int
    dil_w: int
    dtype: str
    filter_x: int
    filter_y: int
    pad_h: int
    pad_w: int
    relu: bool
    stride_h: int
    stride_w: int
    thread_k: int
    thread_p: int
    tile_k: int
    tile_p: int
    vec: int

    def check(self) -> None:
        check_dtype(self)
        check_vec(self)
        if self.thread_k not in THREAD_K_CHOICES:
            self.fail("thread_k", "must be 1, 2, 4 or 8")
        if not 1 <= self.thread_p <= MAX_THREAD_P:
            self.fail("thread_p", f"must be in 1..{MAX_THREAD_P}")
        if self.thread_p * self.thread_k > MAX_ACCUMULATORS:
            self.fail("thread_p", f"thread_p * thread_k = {self.thread_p * self.thread_k} accumulators exceed the "
                                  f"limit of {MAX_ACCUMULATORS}")
        if self.depthwise and self.thread_k % self.vec != 0:
            self.fail("vec", f"must divide thread_k={self.thread_k} (depthwise vectors run along the channels)")
        if self.tile_k < self.thread_k or self.tile_k > MAX_TILE_K or self.tile_k % self.thread_k != 0:
            self.fail("tile_k", f"must be a multiple of thread_k={self.thread_k} in {self.thread_k}..{MAX_TILE_K}")
        if self.tile_p < self.thread_p or self.tile_p > MAX_TILE_P or self.tile_p % self.thread_p != 0:
            self.fail("tile_p", f"must be a multiple of thread_p={self.thread_p} in {self.thread_p}..{MAX_TILE_P}")
        threads = self.threads
        check_threads(self, "tile_p", threads, f"(tile_p / thread_p) * (tile_k / thread_k) = {threads} threads; ")
        check_window(self)

    @property
    def k_threads(self) -> int:
        """Threads along the channels of the tile."""
        return self.tile_k // self.thread_k

    @property
    def p_threads(self) -> int:
        """Threads along the pixels of the tile."""
        return self.tile_p // self.thread_p

    @property
    def threads(self) -> int:
        return self.p_threads * self.k_threads

    @property
    def taps(self) -> int:
        return self.filter_y * self.filter_x
