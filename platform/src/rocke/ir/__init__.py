"""rocke.ir."""
