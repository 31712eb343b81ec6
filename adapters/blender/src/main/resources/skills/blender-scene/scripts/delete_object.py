import bpy

from _scene import find_object, success


def main(name, **params):
    obj = find_object(name)
    kind = obj.type
    bpy.data.objects.remove(obj, do_unlink=True)
    return success("deleted %s" % name, name=name, type=kind, objects=len(bpy.context.scene.objects))
