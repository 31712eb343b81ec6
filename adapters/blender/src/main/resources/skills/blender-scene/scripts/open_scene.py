import os

import bpy

from _scene import failure, success


def main(path, **params):
    if not os.path.isabs(path) or not os.path.isfile(path):
        return failure("no .blend file at %r (give an absolute path)" % path, path=path)
    bpy.ops.wm.open_mainfile(filepath=path, load_ui=False)
    return success(
        "opened %s" % path,
        path=path,
        objects=sorted(o.name for o in bpy.context.scene.objects),
    )
