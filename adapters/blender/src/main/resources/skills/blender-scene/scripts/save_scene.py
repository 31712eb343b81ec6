import os

import bpy

from _scene import failure, success


def main(path, overwrite=False, compress=False, **params):
    if not os.path.isabs(path):
        return failure("path must be absolute, not %r" % path, path=path)
    if not path.lower().endswith(".blend"):
        return failure("path must end with .blend", path=path)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return failure("folder %s does not exist" % folder, path=path)
    if os.path.exists(path) and not overwrite:
        return failure("%s exists; pass overwrite: true to replace it" % path, path=path)
    bpy.ops.wm.save_as_mainfile(filepath=path, compress=bool(compress), copy=False)
    return success(
        "saved %s" % path,
        path=path,
        bytes=os.path.getsize(path),
        objects=sorted(o.name for o in bpy.context.scene.objects),
    )
