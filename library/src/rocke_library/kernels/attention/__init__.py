"""rocke_library.kernels.attention: attention families.

    attention_fwd  flash-attention forward: O and the natural-log LSE; masks none / causal_tl /
                   causal_br; GQA / MQA; batched (strided) and varlen (cu_seqlens); MFMA and WMMA

Shared: common (work decode, masks, online softmax).
"""
