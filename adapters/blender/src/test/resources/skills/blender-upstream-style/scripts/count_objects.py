"""Count the objects of each type in the Blender scene."""

from __future__ import annotations

from collections import Counter

from dcc_mcp_core.skill import skill_entry, skill_success


@skill_entry
def main(**kwargs) -> dict:
    import bpy

    counts = Counter(obj.type for obj in bpy.context.scene.objects)
    return skill_success(f"{sum(counts.values())} objects", counts=dict(counts))


if __name__ == "__main__":
    from dcc_mcp_core.skill import run_main

    run_main(main)
