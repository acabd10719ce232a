"""rocke.helpers."""
