import bpy

from _scene import apply_transform, describe, free_name, success

_ADD = {
    "cube": lambda size: bpy.ops.mesh.primitive_cube_add(size=size),
    "uv_sphere": lambda size: bpy.ops.mesh.primitive_uv_sphere_add(radius=size / 2),
    "ico_sphere": lambda size: bpy.ops.mesh.primitive_ico_sphere_add(radius=size / 2),
    "cylinder": lambda size: bpy.ops.mesh.primitive_cylinder_add(radius=size / 2, depth=size),
    "cone": lambda size: bpy.ops.mesh.primitive_cone_add(radius1=size / 2, depth=size),
    "plane": lambda size: bpy.ops.mesh.primitive_plane_add(size=size),
    "torus": lambda size: bpy.ops.mesh.primitive_torus_add(major_radius=size * 0.375, minor_radius=size * 0.125),
    "monkey": lambda size: bpy.ops.mesh.primitive_monkey_add(size=size),
}


def main(kind, name=None, size=2.0, location=(0.0, 0.0, 0.0), rotation_degrees=None, scale=None, **params):
    _ADD[kind](float(size))
    obj = bpy.context.active_object
    if name:
        obj.name = free_name(bpy.data.objects, name, obj)
        obj.data.name = free_name(bpy.data.meshes, name, obj.data)
    apply_transform(obj, location=location, rotation_degrees=rotation_degrees, scale=scale)
    return success("created %s %s" % (kind, obj.name), object=describe(obj))
