import base64
import os
import tempfile
import time

import bpy
import skillport_host

from _scene import failure, find_object


def main(width=128, height=128, samples=16, camera=None, **params):
    scene = bpy.context.scene
    cam = find_object(camera) if camera else scene.camera
    if cam is None or cam.type != "CAMERA":
        return failure("the scene has no active camera; create one with create_camera or name one with camera")
    render = scene.render
    saved = {
        "engine": render.engine,
        "x": render.resolution_x,
        "y": render.resolution_y,
        "percentage": render.resolution_percentage,
        "filepath": render.filepath,
        "format": render.image_settings.file_format,
        "camera": scene.camera,
    }
    cycles = scene.cycles
    saved_cycles = {"device": cycles.device, "samples": cycles.samples, "denoise": cycles.use_denoising}
    fd, out = tempfile.mkstemp(suffix=".png")
    os.close(fd)
    try:
        render.engine = "CYCLES"
        cycles.device = "CPU"
        cycles.samples = int(samples)
        cycles.use_denoising = False
        render.resolution_x = int(width)
        render.resolution_y = int(height)
        render.resolution_percentage = 100
        render.image_settings.file_format = "PNG"
        render.filepath = out
        scene.camera = cam
        skillport_host.progress(0, 1, "rendering %dx%d, %d samples" % (width, height, samples))
        started = time.monotonic()
        bpy.ops.render.render(write_still=True)
        seconds = time.monotonic() - started
        skillport_host.progress(1, 1, "rendered")
        with open(out, "rb") as f:
            data = f.read()
    finally:
        render.engine = saved["engine"]
        render.resolution_x = saved["x"]
        render.resolution_y = saved["y"]
        render.resolution_percentage = saved["percentage"]
        render.filepath = saved["filepath"]
        render.image_settings.file_format = saved["format"]
        scene.camera = saved["camera"]
        cycles.device = saved_cycles["device"]
        cycles.samples = saved_cycles["samples"]
        cycles.use_denoising = saved_cycles["denoise"]
        if os.path.exists(out):
            os.remove(out)
    return {
        "success": True,
        "message": "rendered %dx%d from %s in %.2f s" % (width, height, cam.name, seconds),
        "context": {
            "width": int(width),
            "height": int(height),
            "samples": int(samples),
            "camera": cam.name,
            "engine": "CYCLES",
            "device": "CPU",
            "seconds": round(seconds, 3),
            "png_bytes": len(data),
        },
        "content": [{"type": "image", "data": base64.b64encode(data).decode("ascii"), "mimeType": "image/png"}],
    }
