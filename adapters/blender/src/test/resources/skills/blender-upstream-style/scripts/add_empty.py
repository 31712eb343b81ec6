"""Add an empty object in Blender."""

from __future__ import annotations

from typing import List, Optional

from dcc_mcp_core.skill import skill_entry, skill_error, skill_exception, skill_success


def add_empty(name: str = "Empty", location: Optional[List[float]] = None) -> dict:
    try:
        import bpy

        obj = bpy.data.objects.new(name, None)
        obj.location = location if location is not None else [0.0, 0.0, 0.0]
        bpy.context.scene.collection.objects.link(obj)
        return skill_success(
            f"Created empty: {obj.name}",
            object_name=obj.name,
            location=list(obj.location),
            prompt="Use rename_object to rename it.",
        )
    except ImportError:
        return skill_error("Blender not available", "bpy could not be imported")
    except Exception as exc:
        return skill_exception(exc, message="Failed to create empty")


@skill_entry
def main(**kwargs) -> dict:
    """Entry point; delegates to :func:`add_empty`."""
    return add_empty(**kwargs)


if __name__ == "__main__":
    from dcc_mcp_core.skill import run_main

    run_main(main)
