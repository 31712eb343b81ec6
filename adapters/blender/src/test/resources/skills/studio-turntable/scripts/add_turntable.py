import math

import bpy
import skillport_host


def main(frames=120, distance=8.0, **params):
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, frames
    pivot = bpy.data.objects.new("TurntablePivot", None)
    camera = bpy.data.objects.new("TurntableCamera", bpy.data.cameras.new("TurntableCamera"))
    for obj in (pivot, camera):
        scene.collection.objects.link(obj)
    camera.parent = pivot
    camera.location = (0.0, -distance, distance / 4)
    camera.rotation_euler = (math.radians(80), 0.0, 0.0)
    skillport_host.progress(1, 2, "camera placed")
    for frame, angle in ((1, 0.0), (frames + 1, 2 * math.pi)):
        pivot.rotation_euler = (0.0, 0.0, angle)
        pivot.keyframe_insert("rotation_euler", index=2, frame=frame)
    scene.camera = camera
    skillport_host.progress(2, 2, "turn keyed")
    return {
        "success": True,
        "message": "turntable over %d frames" % frames,
        "context": {"frames": frames, "camera": camera.name},
    }
