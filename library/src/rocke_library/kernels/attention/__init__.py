"""rocke_library.kernels.attention."""
