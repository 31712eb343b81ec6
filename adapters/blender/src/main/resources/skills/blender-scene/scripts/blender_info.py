import os
import sys
import threading

import bpy


def main(**params):
    engines = sorted({e.bl_idname for e in bpy.types.RenderEngine.__subclasses__()} | {"BLENDER_EEVEE", "BLENDER_WORKBENCH"})
    return {
        "success": True,
        "message": "Blender %s, pid %d" % (bpy.app.version_string, os.getpid()),
        "context": {
            "pid": os.getpid(),
            "blender": bpy.app.version_string,
            "python": sys.version.split()[0],
            "main_thread": threading.current_thread() is threading.main_thread(),
            "background": bool(bpy.app.background),
            "file": bpy.data.filepath or None,
            "render_engines": engines,
        },
    }
