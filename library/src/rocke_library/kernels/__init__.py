"""rocke_library.kernels."""
