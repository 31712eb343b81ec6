"""Helpers shared by the blender-scene scripts (not a tool: its name starts with an underscore)."""
import math

import bpy


def find_object(name):
    obj = bpy.data.objects.get(name)
    if obj is None or obj.name not in bpy.context.scene.objects:
        names = sorted(o.name for o in bpy.context.scene.objects)
        raise LookupError("no object named %r in the scene (objects: %s)" % (name, ", ".join(names) or "none"))
    return obj


def free_name(collection, name, owner):
    """name, or name.001, name.002 ... when another data-block has it (renaming to a taken name
    would rename the one that has it instead)."""
    if name not in collection or collection[name] == owner:
        return name
    n = 1
    while "%s.%03d" % (name, n) in collection:
        n += 1
    return "%s.%03d" % (name, n)


def apply_transform(obj, location=None, rotation_degrees=None, scale=None):
    if location is not None:
        obj.location = location
    if rotation_degrees is not None:
        obj.rotation_euler = [math.radians(a) for a in rotation_degrees]
    if scale is not None:
        obj.scale = scale


def describe(obj):
    """One object as list_scene shows it."""
    import skillport_host

    for item in skillport_host.scene_snapshot()["objects"]:
        if item["name"] == obj.name:
            return item
    return {"name": obj.name, "type": obj.type}


def point_at(obj, target):
    from mathutils import Vector

    direction = Vector(target) - obj.location
    obj.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()


def failure(message, **context):
    return {"success": False, "message": message, "error": message, "context": context}


def success(message, **context):
    return {"success": True, "message": message, "context": context}
