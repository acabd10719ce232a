"""rocke.sim."""
