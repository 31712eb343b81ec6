"""Rename an object in Blender."""

from __future__ import annotations

from dcc_mcp_core.skill import skill_entry, skill_error, skill_success


@skill_entry
def main(old_name: str = "", new_name: str = "", **kwargs) -> dict:
    import bpy

    obj = bpy.data.objects.get(old_name)
    if obj is None:
        return skill_error(
            f"Object not found: {old_name}",
            "KeyError",
            possible_solutions=["Call count_objects to see what the scene holds."],
        )
    obj.name = new_name
    return skill_success(f"Renamed {old_name} to {obj.name}", object_name=obj.name)


if __name__ == "__main__":
    from dcc_mcp_core.skill import run_main

    run_main(main)
