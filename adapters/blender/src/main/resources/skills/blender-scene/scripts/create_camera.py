import bpy

from _scene import apply_transform, describe, point_at, success


def main(name="Camera", location=(7.0, -7.0, 5.0), look_at=(0.0, 0.0, 0.0), rotation_degrees=None, lens=50.0, make_active=True, **params):
    data = bpy.data.cameras.new(name)
    data.lens = float(lens)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    apply_transform(obj, location=location)
    if rotation_degrees is not None:
        apply_transform(obj, rotation_degrees=rotation_degrees)
    else:
        point_at(obj, look_at)
    if make_active:
        bpy.context.scene.camera = obj
    return success("created camera %s" % obj.name, object=describe(obj), active=make_active)
