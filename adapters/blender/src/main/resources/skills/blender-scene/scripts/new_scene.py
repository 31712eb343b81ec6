import bpy

from _scene import success


def main(**params):
    # An empty file with factory settings: no objects, default render settings.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    return success("the scene is new and empty", scene=bpy.context.scene.name, objects=0)
