"""rocke.isa."""
