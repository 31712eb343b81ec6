import bpy

from _scene import apply_transform, describe, point_at, success

_ENERGY = {"point": 1000.0, "spot": 1000.0, "area": 500.0, "sun": 3.0}


def main(type="point", name="Light", location=(4.0, -4.0, 6.0), energy=None, color=(1.0, 1.0, 1.0), look_at=(0.0, 0.0, 0.0), **params):
    data = bpy.data.lights.new(name, type.upper())
    data.energy = float(_ENERGY[type] if energy is None else energy)
    data.color = color
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    apply_transform(obj, location=location)
    if type in ("sun", "spot", "area"):
        point_at(obj, look_at)
    return success("created %s light %s" % (type, obj.name), object=describe(obj))
