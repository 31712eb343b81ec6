"""Business-logic layer for example-layered-skill."""
