# The Python "host": one interpreter that stays up and runs skill scripts on its main thread.
# Requests and answers are JSON lines on stdin/stdout; a script's own prints go to stderr.
import contextlib, json, os, sys, threading, traceback

HOST = {}          # state shared by every script, like a DCC's open scene
_compiled = {}     # script path -> (mtime, code)
_protocol = sys.stdout


def _code(path):
    mtime = os.stat(path).st_mtime_ns
    cached = _compiled.get(path)
    if cached is None or cached[0] != mtime:
        with open(path, encoding="utf-8") as f:
            cached = (mtime, compile(f.read(), path, "exec"))
        _compiled[path] = cached
    return cached[1]


def _run(request):
    namespace = {
        "__name__": "__skillport_host__",
        "__file__": request["script"],
        "HOST": HOST,
        "ON_MAIN_THREAD": threading.current_thread() is threading.main_thread(),
    }
    previous = os.getcwd()
    os.chdir(request["cwd"])
    try:
        with contextlib.redirect_stdout(sys.stderr):
            exec(_code(request["script"]), namespace)
            main = namespace.get("main")
            if not callable(main):
                return {"ok": False, "error": "the script defines no main(**params)"}
            return {"ok": True, "result": main(**request["params"])}
    finally:
        os.chdir(previous)


def _scene():
    # What scene://current shows: the host process and the objects the scene scripts made.
    return {
        "pid": os.getpid(),
        "python_version": sys.version.split()[0],
        "modules_loaded": len(sys.modules),
        "objects": HOST.get("scene", []),
    }


for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    try:
        if request.get("builtin") == "scene":
            answer = {"ok": True, "result": _scene()}
        else:
            answer = _run(request)
    except BaseException as e:  # a script's failure must never end the host
        answer = {
            "ok": False,
            "error": type(e).__name__ + ": " + str(e),
            "traceback": traceback.format_exc(limit=5),
        }
    answer["id"] = request["id"]
    _protocol.write(json.dumps(answer, default=str) + "\n")
    _protocol.flush()
