"""rocke_library.kernels.conv: convolution families.

    img2col          NHWC input -> GEMM column matrix (feeds platform's gemm for implicit-GEMM conv)
    conv_direct_fwd  direct forward convolution, grouped and depthwise, bias and relu epilogue
    conv_igemm_fwd   implicit-GEMM forward convolution on the matrix cores (the shared tile-GEMM main loop)

Shared: geometry (window rules, output sizes) and pixels (device index math of output pixels).
"""
