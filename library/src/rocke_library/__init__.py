"""rocKE library: convolution and attention kernel families and their dispatch."""

__version__ = "0.1.0"
