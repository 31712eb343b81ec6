"""Pure-helper layer for example-layered-skill — no I/O, no DCC calls."""
