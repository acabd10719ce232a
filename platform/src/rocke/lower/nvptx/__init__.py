"""The nvptx target's lowering tables (NVIDIA, triple nvptx64-nvidia-cuda): one module per dialect
whose ops lower differently from AMD. Ops every target lowers alike (arith, vec, scf, mma, the plain
memory accesses, waitcnt) come from the shared tables in rocke.lower; see rocke.lower.dispatch."""
