"""Result helpers and the entry point for skill scripts.

A script prints one JSON object, the result envelope, on stdout:

    {"success": true, "message": "...", "prompt": "...", "context": {...}, "content": [...]}

``success`` false makes the call a tool error whose text is ``message``. ``prompt`` is a hint for
the agent's next step, ``error`` a technical detail, ``context`` the data, and ``content`` extra
MCP content items (images, audio, embedded resources; see ``image_content``). Every helper here
returns a plain ``dict``; nothing needs more than the Python standard library.
"""

import base64
import functools
import json
import os
import sys
import traceback

__all__ = [
    "skill_success",
    "skill_error",
    "skill_warning",
    "skill_exception",
    "skill_error_with_trace",
    "skill_entry",
    "run_main",
    "read_params",
    "image_content",
    "audio_content",
    "resource_content",
    "text_content",
]


def _envelope(success, message, prompt=None, error=None, context=None, content=None):
    result = {"success": bool(success), "message": "" if message is None else str(message)}
    if prompt:
        result["prompt"] = str(prompt)
    if error:
        result["error"] = str(error)
    if context:
        result["context"] = dict(context)
    if content:
        result["content"] = list(content)
    return result


def skill_success(message, prompt=None, content=None, **context):
    """A successful result; keyword arguments other than ``prompt`` and ``content`` form ``context``."""
    return _envelope(True, message, prompt=prompt, context=context, content=content)


def skill_warning(message, warning="", prompt=None, content=None, **context):
    """A success with a caveat: ``context["warning"]`` says what to look at."""
    context = dict(context)
    if warning:
        context["warning"] = warning
    return _envelope(True, message, prompt=prompt, context=context, content=content)


def skill_error(message, error=None, prompt=None, possible_solutions=None, content=None, **context):
    """A failed result: the call is a tool error whose text is ``message``.

    ``error`` is a technical detail (defaults to ``message``), ``prompt`` what the agent may do
    next, ``possible_solutions`` a list kept in ``context``.
    """
    context = dict(context)
    if possible_solutions:
        context["possible_solutions"] = list(possible_solutions)
    return _envelope(
        False,
        message,
        prompt=prompt or "Check the error details and try again.",
        error=error or message,
        context=context,
        content=content,
    )


def skill_error_with_trace(
    message,
    error,
    underlying_call=None,
    recipe_hint=None,
    introspect_hint=None,
    tb=None,
    prompt=None,
    possible_solutions=None,
    **context
):
    """A failed result with a _meta["dcc.raw_trace"] block: the call that failed and hints.

    The block (underlying_call cut to 500 characters, traceback, recipe_hint,
    introspect_hint) is left out when none of them is given.
    """
    result = skill_error(message, error=error, prompt=prompt, possible_solutions=possible_solutions, **context)
    trace = {}
    if underlying_call:
        trace["underlying_call"] = str(underlying_call)[:500]
    if tb:
        trace["traceback"] = str(tb)
    if recipe_hint:
        trace["recipe_hint"] = str(recipe_hint)
    if introspect_hint:
        trace["introspect_hint"] = str(introspect_hint)
    if trace:
        result["_meta"] = {"dcc.raw_trace": trace}
    return result


def skill_exception(
    exc, message=None, prompt=None, include_traceback=True, possible_solutions=None, **context
):
    """A failed result describing ``exc``; the traceback goes into ``context`` when asked."""
    context = dict(context)
    context["error_type"] = type(exc).__name__
    if include_traceback:
        context["traceback"] = "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)
        )
    detail = "%s: %s" % (type(exc).__name__, exc)
    return skill_error(
        message or detail,
        error=detail,
        prompt=prompt,
        possible_solutions=possible_solutions,
        **context
    )


def _as_envelope(value):
    """Turns whatever an entry function returned into a result envelope."""
    if value is None:
        return skill_success("Done.")
    if isinstance(value, dict):
        return value
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(value, str):
        return skill_success(value)
    return skill_success("Done.", result=value)


def skill_entry(func):
    """Decorates a script's entry function so that it always returns a result envelope.

    The function is called with the tool's arguments as keyword arguments. A raised exception
    becomes ``skill_exception`` (an ``ImportError`` says which module is missing); ``None``, a
    string, a ``ToolResult`` or any other value become an envelope too.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return _as_envelope(func(*args, **kwargs))
        except ImportError as exc:
            return skill_exception(
                exc,
                message="Required module not available: %s" % exc,
                prompt="This tool needs a module its interpreter cannot import; check the skill's dcc.",
            )
        except Exception as exc:  # noqa: BLE001 - every failure becomes a result
            return skill_exception(exc)

    return wrapper


def _flag_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def read_params(argv=None, stdin=None):
    """The call's arguments: the JSON object on stdin, else ``--key value`` flags, else ``{}``."""
    stream = sys.stdin if stdin is None else stdin
    if stream is not None and not (hasattr(stream, "isatty") and stream.isatty()):
        text = stream.read()
        if text and text.strip():
            params = json.loads(text)
            if not isinstance(params, dict):
                raise ValueError("the arguments on stdin must be a JSON object")
            return params
    args = list(sys.argv[1:] if argv is None else argv)
    params = {}
    i = 0
    while i < len(args):
        key = args[i]
        if key.startswith("--"):
            name = key[2:].replace("-", "_")
            if "=" in name:
                name, raw = name.split("=", 1)
                params[name] = _flag_value(raw)
            elif i + 1 < len(args) and not args[i + 1].startswith("--"):
                params[name] = _flag_value(args[i + 1])
                i += 1
            else:
                params[name] = True
        i += 1
    return params


def run_main(main_fn, argv=None):
    """Runs a script's entry function as the skill protocol expects, then exits.

    Reads the arguments (``read_params``), calls ``main_fn(**params)``, prints the envelope as one
    line of JSON on stdout and exits 0 on success, 1 on failure.
    """
    try:
        params = read_params(argv)
        result = _as_envelope(main_fn(**params))
    except Exception as exc:  # noqa: BLE001 - every failure becomes a result
        result = skill_exception(exc)
    sys.stdout.write(json.dumps(result, default=str, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    code = 0 if result.get("success", True) else 1
    raise SystemExit(code)


def _file_item(kind, path, data, mime_type):
    item = {"type": kind}
    if path is not None:
        item["path"] = os.fspath(path)
    elif data is not None:
        if isinstance(data, (bytes, bytearray)):
            data = base64.b64encode(bytes(data)).decode("ascii")
        item["data"] = data
    else:
        raise ValueError("give path or data")
    if mime_type:
        item["mimeType"] = mime_type
    return item


def image_content(path=None, data=None, mime_type=None):
    """An image content item: a file (read by the server) or bytes (sent as base64)."""
    return _file_item("image", path, data, mime_type)


def audio_content(path=None, data=None, mime_type=None):
    """An audio content item: a file (read by the server) or bytes (sent as base64)."""
    return _file_item("audio", path, data, mime_type)


def resource_content(uri=None, text=None, data=None, path=None, mime_type=None):
    """An embedded resource: text, bytes (base64) or a file read by the server."""
    item = {"type": "resource"}
    if uri:
        item["uri"] = uri
    if text is not None:
        item["text"] = text
    elif data is not None:
        item["blob"] = base64.b64encode(bytes(data)).decode("ascii")
    elif path is not None:
        item["path"] = os.fspath(path)
    else:
        raise ValueError("give text, data or path")
    if mime_type:
        item["mimeType"] = mime_type
    return item


def text_content(text):
    """A text content item."""
    return {"type": "text", "text": str(text)}
