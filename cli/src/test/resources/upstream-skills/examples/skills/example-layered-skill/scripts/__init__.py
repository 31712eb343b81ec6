"""Scripts package for the example-layered-skill reference implementation."""
