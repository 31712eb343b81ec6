# The Python "host": one interpreter that stays up and runs skill scripts on its main thread.
# Requests and answers are JSON lines on stdin/stdout; a script's own prints go to stderr.
import ast, builtins, contextlib, io, json, os, sys, threading, traceback

HOST = {}          # state shared by every script, like a DCC's open scene
_compiled = {}     # script path -> (mtime, code)
_protocol = sys.stdout


def _code(path):
    """The compiled script, and whether it binds `main` at its top level."""
    mtime = os.stat(path).st_mtime_ns
    cached = _compiled.get(path)
    if cached is None or cached[0] != mtime:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        names = set()
        for node in ast.parse(source, path).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update(a.asname or a.name.split(".")[0] for a in node.names)
        cached = (mtime, compile(source, path, "exec"), "main" in names)
        _compiled[path] = cached
    return cached[1], cached[2]


def _run_top_level(code, script, params):
    # A script written as a program runs as upstream runs one: as __main__, the arguments as JSON on
    # stdin and as --key-with-dashes flags; what it prints and its exit code are the answer.
    flags = []
    for key, value in params.items():
        if isinstance(value, (bool, int, float, str)):
            text = value if isinstance(value, str) else json.dumps(value)
            flags += ["--" + key.replace("_", "-"), text]
    saved = sys.argv, sys.stdin
    sys.argv, sys.stdin = [script] + flags, io.StringIO(json.dumps(params))
    out, exit_code = io.StringIO(), 0
    try:
        with contextlib.redirect_stdout(out):
            exec(code, {"__name__": "__main__", "__file__": script, "__builtins__": builtins, "HOST": HOST})
    except SystemExit as e:
        exit_code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv, sys.stdin = saved
    return {"ok": True, "printed": {"exit": exit_code, "stdout": out.getvalue()}}


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
        code, has_main = _code(request["script"])
        if not has_main:
            return _run_top_level(code, request["script"], request["params"])
        with contextlib.redirect_stdout(sys.stderr):
            exec(code, namespace)
            main = namespace.get("main")
            if not callable(main):
                return {"ok": False, "error": "the script's main is not callable"}
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
