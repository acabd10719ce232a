"""rocke_library.kernels.conv."""
