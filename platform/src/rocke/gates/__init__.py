"""rocke.gates."""
