"""rocke_library.dispatch."""
