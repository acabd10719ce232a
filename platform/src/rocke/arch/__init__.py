"""rocke.arch."""
