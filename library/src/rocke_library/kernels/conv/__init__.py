"""rocke_library.kernels.conv: convolution families.

    img2col          NHWC input -> GEMM column matrix (feeds platform's gemm for implicit-GEMM conv)
    conv_direct_fwd  direct forward convolution, grouped and depthwise, bias and relu epilogue
    conv_igemm_fwd   implicit-GEMM forward convolution on the matrix cores (the shared tile-GEMM main loop)
    conv_igemm_dgrad data gradient dx as an implicit GEMM on the matrix cores
    conv_igemm_wgrad weight gradient dw as an implicit GEMM, split-K with f32 atomics + convert

Shared: geometry (window rules, output sizes), pixels (device index math of output pixels) and igemm
(the tile rules and problem checks of the implicit-GEMM families).
"""
