import hou  # noqa: F401 - only Houdini's Python has it

print("{}")
