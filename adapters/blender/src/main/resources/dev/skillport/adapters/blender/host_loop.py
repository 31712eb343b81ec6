# Skillport's host loop inside Blender: `blender -b --factory-startup --python-expr <this file>`.
#
# Requests arrive as JSON lines on stdin. Answers leave as JSON lines on the protocol pipe, which is
# the process's original stdout: the loop takes it over before it says hello, so everything Blender
# and the scripts print afterwards goes to stderr. Calls run one at a time on Blender's main thread
# (the thread that runs this file), where bpy may be used. A second thread reads stdin, so a cancel
# request can reach a call while it runs.
import ast
import builtins
import io
import json
import math
import os
import queue
import signal
import sys
import tempfile
import threading
import time
import traceback
import types

import bpy

sys.dont_write_bytecode = True  # nothing is written into skill folders

_NAME = "__skillport_host__"
_LOOP_FILE = sys._getframe().f_code.co_filename
_MAX_LINE = 60 << 20  # the server refuses answers over 64 MiB
_MAIN = threading.main_thread()
_send_lock = threading.Lock()
_inbox = queue.Queue()
_cancelled = set()  # ids of calls whose cancellation was asked
_running = None  # id of the call on the main thread, or None between calls
_compiled = {}  # script path -> (mtime_ns, size, code, has_main)
_MAX_PRINTED = 32 << 20  # what a top-level script prints beyond this is cut


class CallCancelled(BaseException):
    """Raised inside a running script when its call is cancelled."""


def _take_stdout():
    """Returns a writer on the original stdout and points fd 1 at stderr from now on."""
    sys.stdout.flush()
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)  # Blender's own prints sit in C stdio buffers
    except (OSError, AttributeError, TypeError):
        pass
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    return protocol


_protocol = _take_stdout()


def _jsonable(value):
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if hasattr(value, "to_list"):  # mathutils vectors, colours, eulers
        return value.to_list()
    if hasattr(value, "name") and hasattr(value, "bl_rna"):  # a Blender data-block
        return value.name
    try:
        return list(value)
    except TypeError:
        return str(value)


def _send(message):
    try:
        line = json.dumps(message, default=_jsonable, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        line = json.dumps(
            {
                "id": message.get("id"),
                "ok": False,
                "error": "the result cannot be sent as JSON: " + str(e),
                "type": "ResultNotJson",
            }
        )
    if len(line) > _MAX_LINE:
        line = json.dumps(
            {
                "id": message.get("id"),
                "ok": False,
                "error": "the result is %d MiB of JSON; at most %d MiB can be sent" % (len(line) >> 20, _MAX_LINE >> 20),
                "type": "ResultTooLarge",
            }
        )
    with _send_lock:
        _protocol.write(line + "\n")
        _protocol.flush()


# What scripts may import: `import skillport_host`.
def progress(done, total=None, message=None):
    """Reports the running call's progress to the client (values must grow)."""
    if _running is not None:
        _send(
            {
                "op": "progress",
                "id": _running,
                "progress": float(done),
                "total": None if total is None else float(total),
                "message": None if message is None else str(message),
            }
        )


def _vector(v, digits=4):
    return [round(float(x), digits) for x in v]


def _material_color(obj):
    slots = getattr(obj, "material_slots", None) or []
    for slot in slots:
        material = slot.material
        if material is None:
            continue
        if material.use_nodes and material.node_tree is not None:
            bsdf = material.node_tree.nodes.get("Principled BSDF")
            if bsdf is not None:
                return {"material": material.name, "color": _vector(bsdf.inputs["Base Color"].default_value)}
        return {"material": material.name, "color": _vector(material.diffuse_color)}
    return None


def scene_snapshot():
    """The open scene as plain data: what scene://current shows and list_scene returns."""
    scene = bpy.context.scene
    objects = []
    for obj in sorted(scene.objects, key=lambda o: o.name):
        item = {
            "name": obj.name,
            "type": obj.type,
            "location": _vector(obj.location),
            "rotation_degrees": [round(math.degrees(a), 4) for a in obj.rotation_euler],
            "scale": _vector(obj.scale),
            "dimensions": _vector(obj.dimensions),
            "parent": obj.parent.name if obj.parent else None,
        }
        if obj.type == "MESH":
            item["vertices"] = len(obj.data.vertices)
            item["faces"] = len(obj.data.polygons)
            item["material"] = _material_color(obj)
        elif obj.type == "CAMERA":
            item["lens"] = round(obj.data.lens, 4)
            item["active"] = scene.camera is not None and scene.camera.name == obj.name
        elif obj.type == "LIGHT":
            item["light_type"] = obj.data.type
            item["energy"] = round(obj.data.energy, 4)
            item["color"] = _vector(obj.data.color)
        objects.append(item)
    return {
        "scene": scene.name,
        "file": bpy.data.filepath or None,
        "frame": scene.frame_current,
        "camera": scene.camera.name if scene.camera else None,
        "render": {
            "engine": scene.render.engine,
            "resolution": [scene.render.resolution_x, scene.render.resolution_y],
        },
        "objects": objects,
        "count": len(objects),
        "host": {"pid": os.getpid(), "blender": bpy.app.version_string},
    }


def cancelled():
    """Whether the running call's cancellation was asked (``dcc_mcp_core.check_cancelled`` reads it)."""
    return _running is not None and _running in _cancelled


def capture(format="png", scale=1.0, jpeg_quality=85):
    """Renders the scene camera with the scene's settings at ``scale`` of its resolution.

    Background Blender has no window to grab, so a capture is a render. Returns the encoded image
    and its size; the scene's render settings are left as they were.
    """
    scene = bpy.context.scene
    if scene.camera is None:
        raise RuntimeError("the scene has no camera to render a capture from")
    if format == "raw_bgra":
        raise RuntimeError("Blender captures png or jpeg")
    render = scene.render
    settings = render.image_settings
    kept = (render.filepath, render.resolution_percentage, settings.file_format, settings.quality)
    fd, path = tempfile.mkstemp(suffix=".jpg" if format == "jpeg" else ".png")
    os.close(fd)
    try:
        settings.file_format = "JPEG" if format == "jpeg" else "PNG"
        if format == "jpeg":
            settings.quality = int(jpeg_quality)
        render.resolution_percentage = max(1, int(round(kept[1] * scale)))
        render.filepath = path
        bpy.ops.render.render(write_still=True)
        with open(path, "rb") as f:
            data = f.read()
        width = render.resolution_x * render.resolution_percentage // 100
        height = render.resolution_y * render.resolution_percentage // 100
    finally:
        render.filepath, render.resolution_percentage, settings.file_format, settings.quality = kept
        os.unlink(path)
    return {"data": data, "width": width, "height": height, "title": bpy.data.filepath or scene.name}


def host_call(method, args):
    """What ``dcc_mcp_core.connect_ipc`` channels ask: the operations the adapter itself uses."""
    if method == "scene":
        return scene_snapshot()
    if method == "ping":
        return {"pid": os.getpid()}
    raise ValueError("unknown host method %r (known: scene, ping)" % method)


_module = types.ModuleType("skillport_host")
_module.progress = progress
_module.scene_snapshot = scene_snapshot
_module.cancelled = cancelled
_module.capture = capture
_module.host_call = host_call
_module.CallCancelled = CallCancelled
sys.modules["skillport_host"] = _module


def _interrupt(signum, frame):
    # Runs on the main thread between two bytecodes of the running script.
    if _running is not None and _running in _cancelled:
        raise CallCancelled()


def _kick_main():
    if hasattr(signal, "pthread_kill") and hasattr(signal, "SIGUSR1"):
        signal.pthread_kill(_MAIN.ident, signal.SIGUSR1)  # also wakes a sleeping script
    else:
        import _thread

        _thread.interrupt_main()


if hasattr(signal, "SIGUSR1"):
    signal.signal(signal.SIGUSR1, _interrupt)


def _reader():
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        try:
            request = json.loads(raw)
        except ValueError:
            sys.stderr.write("skillport host: ignored a request that is not JSON\n")
            continue
        if request.get("op") == "cancel":
            _cancelled.add(request.get("id"))
            if _running is not None and _running == request.get("id"):
                _kick_main()
        else:
            _inbox.put(request)
    _inbox.put(None)
    # The server is gone. A script still running gets a few seconds, then the process ends.
    time.sleep(5)
    if _running is not None:
        os._exit(3)


def _defines_main(source, path):
    """Whether the module binds ``main`` at its top level (a def, an assignment or an import)."""
    for node in ast.parse(source, path).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == "main":
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "main" for t in targets):
                return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name.split(".")[0]) == "main" for a in node.names):
                return True
    return False


def _code(path):
    """The compiled script and whether it has an entry function, read again when the file changes."""
    st = os.stat(path)
    cached = _compiled.get(path)
    if cached is None or cached[0] != st.st_mtime_ns or cached[1] != st.st_size:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        code = compile(source, path, "exec")
        cached = (st.st_mtime_ns, st.st_size, code, _defines_main(source, path))
        _compiled[path] = cached
    return cached[2], cached[3]


def _flags(params):
    # As upstream's runner passes arguments on the command line: --key-with-dashes value, scalars only.
    argv = []
    for key, value in params.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (int, float)):
            text = json.dumps(value)
        elif isinstance(value, str) and len(value.encode("utf-8")) <= 8192:
            text = value
        else:
            continue
        argv += ["--" + key.replace("_", "-"), text]
    return argv


def _run_top_level(code, script, params):
    """Runs a script written as a program, the way upstream runs one in its own process.

    ``__name__`` is ``"__main__"``, ``sys.argv`` holds the arguments as flags and ``sys.stdin`` the
    arguments as JSON; what it prints on ``sys.stdout`` and its exit code are the answer, read by
    the server with the same rules as a script run in its own process.
    """
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", newline="\n", write_through=True)
    saved = (sys.argv, sys.stdin, sys.stdout)
    sys.argv = [script] + _flags(params)
    sys.stdin = io.StringIO(json.dumps(params))
    sys.stdout = out
    exit_code = 0
    try:
        exec(code, {"__name__": "__main__", "__file__": script, "__builtins__": builtins})
    except SystemExit as e:
        if e.code is None:
            exit_code = 0
        elif isinstance(e.code, int):
            exit_code = e.code
        else:
            sys.stderr.write(str(e.code) + "\n")
            exit_code = 1
    finally:
        sys.argv, sys.stdin, sys.stdout = saved
        out.flush()
    printed = raw.getvalue()
    text = printed[:_MAX_PRINTED].decode("utf-8", errors="replace")
    return {"ok": True, "printed": {"exit": exit_code, "stdout": text, "truncated": len(printed) > _MAX_PRINTED}}


def _under(path, folder):
    try:
        return os.path.commonpath([os.path.abspath(path), folder]) == folder
    except ValueError:
        return False


def _run_script(request):
    script = os.path.abspath(request["script"])
    folder = os.path.abspath(request["cwd"])
    imports = [os.path.dirname(script)] + list(request.get("path") or [])
    added = [p for p in imports if p not in sys.path]
    sys.path[0:0] = added
    previous = os.getcwd()
    os.chdir(folder)
    try:
        code, has_main = _code(script)
        params = request.get("params") or {}
        if not has_main:
            return _run_top_level(code, script, params)
        namespace = {"__name__": _NAME, "__file__": script}
        exec(code, namespace)
        main = namespace.get("main")
        if not callable(main):
            return {"ok": False, "error": "the script's main is not callable", "type": "NoMain"}
        return {"ok": True, "result": main(**params)}
    finally:
        os.chdir(previous)
        for p in added:
            if p in sys.path:
                sys.path.remove(p)
        # Helper modules of the skill are read again by its next call (edits show, and two skills'
        # modules of the same name do not mix).
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None)
            if origin and _under(origin, folder):
                del sys.modules[name]


def _answer(request):
    op = request.get("op")
    if op == "call":
        return _run_script(request)
    if op == "scene":
        return {"ok": True, "result": scene_snapshot()}
    if op == "ping":
        return {"ok": True, "result": {"pid": os.getpid()}}
    return {"ok": False, "error": "unknown op " + repr(op), "type": "UnknownOp"}


def _script_traceback(error):
    # The loop's own frames (its code has no file) say nothing about the script.
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != _LOOP_FILE]
    lines = ["Traceback (most recent call last):\n"] + traceback.format_list(frames[-8:])
    return "".join(lines + traceback.format_exception_only(type(error), error))


def _serve(request):
    global _running
    call_id = request.get("id")
    for old in [i for i in list(_cancelled) if isinstance(i, int) and isinstance(call_id, int) and i < call_id]:
        _cancelled.discard(old)  # cancels that came after their call ended
    try:
        try:
            _running = call_id
            if call_id in _cancelled:
                raise CallCancelled()
            answer = _answer(request)
        finally:
            _running = None
    except CallCancelled:
        answer = {"ok": False, "cancelled": True, "error": "the call was cancelled"}
    except KeyboardInterrupt:
        if call_id in _cancelled:
            answer = {"ok": False, "cancelled": True, "error": "the call was cancelled"}
        else:
            answer = {"ok": False, "error": "interrupted", "type": "KeyboardInterrupt"}
    except SystemExit as e:
        answer = {"ok": False, "error": "the script called sys.exit(" + repr(e.code) + ")", "type": "SystemExit"}
    except BaseException as e:  # a script's failure must never end the host
        answer = {
            "ok": False,
            "error": type(e).__name__ + ": " + str(e),
            "type": type(e).__name__,
            "traceback": _script_traceback(e),
        }
    failed = not answer.get("ok") or answer.get("printed", {}).get("exit", 0) != 0
    if failed and call_id in _cancelled:
        # The script stopped because it saw its cancellation (check_cancelled raised CancelledError).
        answer = {"ok": False, "cancelled": True, "error": "the call was cancelled"}
    _cancelled.discard(call_id)
    answer["id"] = call_id
    _send(answer)


def _loop():
    threading.Thread(target=_reader, name="skillport-host-reader", daemon=True).start()
    _send(
        {
            "op": "hello",
            "nonce": os.environ.get("SKILLPORT_HOST_NONCE", ""),
            "pid": os.getpid(),
            "blender": bpy.app.version_string,
            "python": sys.version.split()[0],
            "main_thread": threading.current_thread() is _MAIN,
            "background": bool(bpy.app.background),
        }
    )
    while True:
        try:
            request = _inbox.get()
            if request is None:
                break
            _serve(request)
        except CallCancelled:
            pass  # a cancel that arrived between two calls


_loop()
