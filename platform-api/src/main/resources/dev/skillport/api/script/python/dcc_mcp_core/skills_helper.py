"""Dependency-free helpers for skill scripts: JSON and YAML, bounded files and HTTP, digests,
validation, result envelopes, cancellation and ``run_main``.

The same names as dcc-mcp-core's ``skills_helper``, on the Python standard library: HTTP through
``urllib`` with a timeout and a cap on the body read, YAML through PyYAML when the interpreter has
it (else the block subset skill files use), SHA-256 through ``hashlib``. LZ4 needs the ``lz4``
package; without it ``compress_bytes`` raises ``SkillFileError`` saying so.
"""

import hashlib
import json as _json
import os
import tempfile
import time
from pathlib import Path

from . import _yaml
from .cancellation import CancellationProbe, CancelledError, check_cancelled, check_dcc_cancelled
from .cancellation import current_job_id
from .result_envelope import error_result, success_result
from .schema import derive_parameters_schema, derive_schema, schema_from_doc, tool_spec_from_callable
from .skill import (
    run_main,
    skill_entry,
    skill_error,
    skill_error_with_trace,
    skill_exception,
    skill_success,
    skill_warning,
)


class SkillHelperError(Exception):
    """Base of the helpers' failures."""


class SkillCodecError(SkillHelperError):
    """JSON or YAML that cannot be read or written."""

    def __init__(self, message, codec, source=None):
        self.codec = codec
        self.source = source
        detail = "%s: %s" % (codec, message)
        super().__init__("%s: %s" % (source, detail) if source else detail)


class SkillFileError(SkillHelperError):
    """A file that cannot be read, written, hashed or compressed safely."""

    def __init__(self, message, operation, source=None):
        self.operation = operation
        self.source = source
        detail = "%s: %s" % (operation, message)
        super().__init__("%s: %s" % (source, detail) if source else detail)


class SkillHttpError(SkillHelperError):
    """An HTTP request that could not complete (``kind`` says why)."""

    def __init__(self, message, kind, url=None, status=None, headers=None):
        self.kind = kind
        self.url = url
        self.status = status
        self.headers = dict(headers or {})
        detail = "%s: %s" % (kind, message)
        if status is not None:
            detail = "HTTP %s: %s" % (status, detail)
        super().__init__("%s: %s" % (url, detail) if url else detail)

    def to_skill_error(self, message=None, **context):
        """This failure as a skill error envelope."""
        payload = {"kind": self.kind, "url": self.url, "status": self.status, "headers": self.headers}
        payload.update(context)
        return skill_error(message or str(self), error=self.kind, **payload)


class HttpResponse(object):
    """A response read by ``http_request``: ``status``, ``headers``, ``bytes``/``text``/``json()``."""

    def __init__(self, status, headers, body, url, elapsed_ms, truncated=False):
        self.status = status
        self.headers = dict(headers)
        self._body = body
        self.url = url
        self.elapsed_ms = elapsed_ms
        self.truncated = truncated

    @property
    def bytes(self):
        return self._body

    @property
    def text(self):
        return self._body.decode("utf-8", errors="replace")

    def json(self):
        if self.truncated:
            raise SkillHttpError(
                "response exceeded max_bytes and was truncated at %d bytes" % len(self._body),
                kind="response-truncated",
                url=self.url,
                status=self.status,
            )
        return load_json_text(self.text, source="%s response" % self.url)

    def raise_for_status(self):
        if self.status < 200 or self.status >= 300:
            raise HttpStatusError(self)


class HttpStatusError(SkillHttpError):
    """A response whose status is outside 2xx."""

    def __init__(self, response):
        self.response = response
        super().__init__(
            "HTTP request returned status %s" % response.status,
            kind="http-status",
            url=response.url,
            status=response.status,
            headers=redact_http_headers(response.headers),
        )


DEFAULT_FILE_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_PAYLOAD_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_HTTP_TIMEOUT_MS = 5000
DEFAULT_HTTP_MAX_BYTES = 1024 * 1024
REDACTED_HTTP_HEADER_VALUE = "[REDACTED]"
SENSITIVE_HTTP_HEADERS = {
    "authorization",
    "cookie",
    "proxy-authorization",
    "set-cookie",
    "x-api-key",
    "x-auth-token",
}


def json_dumps(obj, ensure_ascii=True, indent=None):
    return _json.dumps(obj, ensure_ascii=ensure_ascii, indent=indent)


def json_loads(s):
    return _json.loads(s)


def yaml_dumps(obj):
    return _yaml.dumps(obj)


def yaml_loads(s):
    return _yaml.loads(s)


def redact_http_headers(headers):
    """A copy of ``headers`` with credential-bearing values replaced by ``[REDACTED]``."""
    out = {}
    for name, value in (headers or {}).items():
        key = str(name)
        out[key] = REDACTED_HTTP_HEADER_VALUE if key.lower() in SENSITIVE_HTTP_HEADERS else str(value)
    return out


def _query_pairs(query):
    if query is None:
        return []
    items = query.items() if hasattr(query, "items") else query
    pairs = []
    for name, value in items:
        if value is None:
            continue
        if isinstance(value, (list, tuple, set)):
            pairs.extend((str(name), str(v)) for v in value if v is not None)
        else:
            pairs.append((str(name), str(value)))
    return pairs


def http_request(
    method,
    url,
    headers=None,
    query=None,
    json=None,
    body=None,
    timeout_ms=DEFAULT_HTTP_TIMEOUT_MS,
    max_bytes=DEFAULT_HTTP_MAX_BYTES,
    raise_for_status=False,
):
    """One HTTP request with a timeout and at most ``max_bytes`` of body read."""
    import urllib.error
    import urllib.parse
    import urllib.request

    if json is not None and body is not None:
        raise SkillHttpError("json and body are mutually exclusive", kind="invalid-body", url=url)
    if timeout_ms <= 0:
        raise SkillHttpError("timeout_ms must be greater than zero", kind="invalid-timeout", url=url)
    if max_bytes < 0:
        raise SkillHttpError("max_bytes must be >= 0", kind="invalid-max-bytes", url=url)
    scheme = urllib.parse.urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        raise SkillHttpError("only http and https URLs are fetched", kind="invalid-url", url=url)
    pairs = _query_pairs(query)
    if pairs:
        url = url + ("&" if "?" in url else "?") + urllib.parse.urlencode(pairs)
    sent = {str(k): str(v) for k, v in (headers or {}).items()}
    data = None
    if json is not None:
        data = _json.dumps(json, ensure_ascii=False).encode("utf-8")
        sent.setdefault("Content-Type", "application/json")
    elif body is not None:
        data = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    request = urllib.request.Request(url, data=data, headers=sent, method=method.upper())
    started = time.monotonic()
    try:
        response = urllib.request.urlopen(request, timeout=timeout_ms / 1000.0)
    except urllib.error.HTTPError as e:
        response = e  # a status outside 2xx still has headers and a body
    except urllib.error.URLError as e:
        kind = "timeout" if "timed out" in str(e.reason) else "connect"
        raise SkillHttpError(str(e.reason), kind=kind, url=url, headers=redact_http_headers(headers))
    except OSError as e:
        raise SkillHttpError(str(e), kind="timeout" if "timed out" in str(e) else "io", url=url)
    try:
        payload = response.read(max_bytes + 1)
    except OSError as e:
        raise SkillHttpError(str(e), kind="timeout" if "timed out" in str(e) else "io", url=url)
    finally:
        response.close()
    result = HttpResponse(
        status=int(response.status if hasattr(response, "status") else response.code),
        headers=dict(response.headers.items()),
        body=payload[:max_bytes],
        url=response.geturl() if hasattr(response, "geturl") else url,
        elapsed_ms=int((time.monotonic() - started) * 1000),
        truncated=len(payload) > max_bytes,
    )
    if raise_for_status:
        result.raise_for_status()
    return result


def http_get_json(url, headers=None, query=None, timeout_ms=DEFAULT_HTTP_TIMEOUT_MS, max_bytes=DEFAULT_HTTP_MAX_BYTES):
    """GET ``url``, require 2xx, parse the JSON body."""
    return http_request(
        "GET", url, headers=headers, query=query, timeout_ms=timeout_ms, max_bytes=max_bytes, raise_for_status=True
    ).json()


_MISSING = object()


def http_post_json(
    url,
    payload=_MISSING,
    json=_MISSING,
    headers=None,
    query=None,
    timeout_ms=DEFAULT_HTTP_TIMEOUT_MS,
    max_bytes=DEFAULT_HTTP_MAX_BYTES,
):
    """POST JSON (``payload`` or ``json``) to ``url``, require 2xx, parse the JSON answer."""
    if payload is not _MISSING and json is not _MISSING:
        raise SkillHttpError("payload and json are aliases; pass only one", kind="invalid-body", url=url)
    sent = None if payload is _MISSING and json is _MISSING else (json if json is not _MISSING else payload)
    return http_request(
        "POST",
        url,
        headers=headers,
        query=query,
        json=sent,
        timeout_ms=timeout_ms,
        max_bytes=max_bytes,
        raise_for_status=True,
    ).json()


def load_text(path, max_bytes=None):
    """A UTF-8 text file, refused when larger than ``max_bytes`` (64 MiB by default)."""
    limit = DEFAULT_FILE_MAX_BYTES if max_bytes is None else max_bytes
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise SkillFileError(str(e), operation="load_text", source=str(path))
    if len(data) > limit:
        raise SkillFileError("file is larger than %d bytes" % limit, operation="load_text", source=str(path))
    return data.decode("utf-8")


def dump_text(path, text, create_parents=True):
    return atomic_write_text(path, text, create_parents=create_parents)


def load_json_text(text, source=None, require_mapping=False):
    try:
        value = _json.loads(text)
    except ValueError as e:
        raise SkillCodecError(str(e), codec="json", source=source)
    return _mapping_root(value, "json", source, require_mapping)


def dump_json_text(obj, ensure_ascii=True, indent=None):
    try:
        return _json.dumps(obj, ensure_ascii=ensure_ascii, indent=indent)
    except (TypeError, ValueError) as e:
        raise SkillCodecError(str(e), codec="json")


def load_json_file(path, require_mapping=False, max_bytes=None):
    return load_json_text(load_text(path, max_bytes=max_bytes), source=str(path), require_mapping=require_mapping)


def dump_json_file(path, obj, ensure_ascii=True, indent=2, create_parents=True):
    return atomic_write_text(path, dump_json_text(obj, ensure_ascii=ensure_ascii, indent=indent), create_parents=create_parents)


def load_yaml_text(text, source=None, require_mapping=False):
    try:
        value = _yaml.loads(text)
    except Exception as e:  # PyYAML's errors and the subset reader's ValueError alike
        raise SkillCodecError(str(e), codec="yaml", source=source)
    return _mapping_root(value, "yaml", source, require_mapping)


def dump_yaml_text(obj):
    try:
        return _yaml.dumps(obj)
    except Exception as e:
        raise SkillCodecError(str(e), codec="yaml")


def load_yaml_file(path, require_mapping=False, max_bytes=None):
    return load_yaml_text(load_text(path, max_bytes=max_bytes), source=str(path), require_mapping=require_mapping)


def dump_yaml_file(path, obj, create_parents=True):
    return atomic_write_text(path, dump_yaml_text(obj), create_parents=create_parents)


def _mapping_root(value, codec, source, require_mapping):
    if require_mapping and not isinstance(value, dict):
        raise SkillCodecError("the document's root must be a mapping", codec=codec, source=source)
    return value


def ensure_within_root(root, path, must_exist=False):
    """``path`` (relative to ``root`` or absolute) resolved, refused when it leaves ``root``."""
    base = Path(root).resolve()
    candidate = Path(path)
    resolved = (candidate if candidate.is_absolute() else base / candidate).resolve()
    if resolved != base and base not in resolved.parents:
        raise SkillFileError("path escapes root %s" % base, operation="ensure_within_root", source=str(path))
    if must_exist and not resolved.exists():
        raise SkillFileError("path does not exist", operation="ensure_within_root", source=str(path))
    return resolved


def atomic_write_bytes(path, data, root=None, create_parents=True, max_bytes=DEFAULT_FILE_MAX_BYTES):
    """Writes ``data`` to a temporary file beside ``path``, then renames it over ``path``."""
    target = ensure_within_root(root, path) if root is not None else Path(path)
    payload = bytes(data)
    if max_bytes is not None and len(payload) > max_bytes:
        raise SkillFileError("data is larger than %d bytes" % max_bytes, operation="atomic_write_bytes", source=str(target))
    try:
        if create_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", dir=str(target.parent))
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.replace(tmp, str(target))
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise SkillFileError(str(e), operation="atomic_write_bytes", source=str(target))
    return target


def atomic_write_text(path, text, root=None, create_parents=True, max_bytes=DEFAULT_FILE_MAX_BYTES):
    return atomic_write_bytes(path, text.encode("utf-8"), root=root, create_parents=create_parents, max_bytes=max_bytes)


def _sha256_only(algorithm, operation):
    if algorithm.lower() != "sha256":
        raise SkillFileError("unsupported algorithm %r; use 'sha256'" % algorithm, operation=operation)


def bytes_digest(data, algorithm="sha256", max_bytes=DEFAULT_FILE_MAX_BYTES):
    """The SHA-256 of ``data`` as hex."""
    _sha256_only(algorithm, "bytes_digest")
    payload = bytes(data)
    if max_bytes is not None and len(payload) > max_bytes:
        raise SkillFileError("data is larger than %d bytes" % max_bytes, operation="bytes_digest")
    return hashlib.sha256(payload).hexdigest()


def file_digest(path, algorithm="sha256", root=None, max_bytes=DEFAULT_FILE_MAX_BYTES):
    """The SHA-256 of a file as hex, read in chunks."""
    _sha256_only(algorithm, "file_digest")
    p = ensure_within_root(root, path, must_exist=True) if root is not None else Path(path)
    digest = hashlib.sha256()
    read = 0
    try:
        with open(str(p), "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                read += len(chunk)
                if max_bytes is not None and read > max_bytes:
                    raise SkillFileError("file is larger than %d bytes" % max_bytes, operation="file_digest", source=str(p))
                digest.update(chunk)
    except OSError as e:
        raise SkillFileError(str(e), operation="file_digest", source=str(p))
    return digest.hexdigest()


def _lz4(operation):
    try:
        import lz4.frame as frame
    except ImportError:
        raise SkillFileError(
            "LZ4 needs the 'lz4' package in the script's interpreter (pip install lz4)", operation=operation
        )
    return frame


def compress_bytes(data, algorithm="lz4", max_bytes=DEFAULT_PAYLOAD_MAX_BYTES):
    """LZ4-frame-compressed ``data`` (needs the ``lz4`` package)."""
    if algorithm.lower() != "lz4":
        raise SkillFileError("unsupported algorithm %r; use 'lz4'" % algorithm, operation="compress_bytes")
    payload = bytes(data)
    if max_bytes is not None and len(payload) > max_bytes:
        raise SkillFileError("data is larger than %d bytes" % max_bytes, operation="compress_bytes")
    return _lz4("compress_bytes").compress(payload)


def decompress_bytes(data, algorithm="lz4", max_bytes=DEFAULT_PAYLOAD_MAX_BYTES):
    """LZ4-frame ``data`` decompressed, refused when the output would exceed ``max_bytes``."""
    if algorithm.lower() != "lz4":
        raise SkillFileError("unsupported algorithm %r; use 'lz4'" % algorithm, operation="decompress_bytes")
    frame = _lz4("decompress_bytes")
    out = frame.LZ4FrameDecompressor().decompress(bytes(data), max_length=max_bytes + 1 if max_bytes else -1)
    if max_bytes is not None and len(out) > max_bytes:
        raise SkillFileError("output is larger than %d bytes" % max_bytes, operation="decompress_bytes")
    return out


def skill_error_from_exception(exc, message=None, error=None, prompt=None, **context):
    """``exc`` as a skill error envelope."""
    return skill_error(message or str(exc) or type(exc).__name__, error=error or type(exc).__name__, prompt=prompt, **context)


_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


def _check(schema, value, path, errors):
    kind = schema.get("type")
    kinds = list(kind) if isinstance(kind, (list, tuple)) else ([kind] if isinstance(kind, str) else [])
    if kinds and not any(_TYPES.get(k, lambda v: True)(value) for k in kinds):
        errors.append("%s: expected %s, got %s" % (path, " or ".join(kinds), type(value).__name__))
        return
    if isinstance(schema.get("enum"), list) and value not in schema["enum"]:
        errors.append("%s: value %r is not in enum" % (path, value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(schema.get("minimum"), (int, float)) and value < schema["minimum"]:
            errors.append("%s: value %r is less than minimum %r" % (path, value, schema["minimum"]))
        if isinstance(schema.get("maximum"), (int, float)) and value > schema["maximum"]:
            errors.append("%s: value %r is greater than maximum %r" % (path, value, schema["maximum"]))
    if isinstance(value, dict):
        for name in schema.get("required") or []:
            if name not in value:
                errors.append("%s.%s: is required" % (path, name))
        for name, sub in (schema.get("properties") or {}).items():
            if name in value and isinstance(sub, dict):
                _check(sub, value[name], "%s.%s" % (path, name), errors)
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            _check(schema["items"], item, "%s[%d]" % (path, i), errors)


class ToolValidator(object):
    """Checks JSON-encoded arguments against a JSON Schema (types, enum, bounds, required, items)."""

    def __init__(self, schema=None):
        self._schema = schema

    @staticmethod
    def from_schema_json(schema_json):
        schema = _json.loads(schema_json)
        if not isinstance(schema, dict):
            raise ValueError("schema_json must decode to a JSON object")
        return ToolValidator(schema)

    @staticmethod
    def from_action_registry(registry, action_name, dcc_name=None):
        getter = getattr(registry, "get_action", None)
        action = getter(action_name) if callable(getter) else registry[action_name]
        if action is None:
            raise KeyError(action_name)
        schema = action.get("input_schema") if isinstance(action, dict) else getattr(action, "input_schema", None)
        if isinstance(schema, str) and schema.strip():
            return ToolValidator.from_schema_json(schema)
        return ToolValidator(schema if isinstance(schema, dict) else None)

    def validate(self, params_json):
        """``(ok, errors)`` for the arguments in ``params_json``."""
        params = _json.loads(params_json)
        errors = []
        if self._schema is not None:
            _check(self._schema, params, "$", errors)
        return (not errors, errors)

    def __repr__(self):
        return "ToolValidator(schema=%r)" % (self._schema,)


def validate_action_result(result):
    """``result`` as a result envelope dict, refusing a value that is not one."""
    value = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(value, dict) or "success" not in value:
        raise ValueError("a result envelope is a dict with 'success'")
    return value


def serialize_result(result):
    return _json.dumps(validate_action_result(result), default=str)


def deserialize_result(text):
    return validate_action_result(_json.loads(text))


def from_exception(exc, message=None, **context):
    return skill_exception(exc, message=message, **context)


def normalize_tool_arguments(arguments):
    """The call's arguments as a dict: a JSON object text, a mapping, or nothing."""
    if arguments is None:
        return {}
    if isinstance(arguments, (str, bytes)):
        arguments = _json.loads(arguments)
    if not isinstance(arguments, dict):
        raise TypeError("tool arguments must be a JSON object")
    return dict(arguments)


def normalize_tool_meta(meta):
    return dict(meta or {})


__all__ = sorted(
    [
        "CancellationProbe",
        "CancelledError",
        "DEFAULT_FILE_MAX_BYTES",
        "DEFAULT_HTTP_MAX_BYTES",
        "DEFAULT_HTTP_TIMEOUT_MS",
        "DEFAULT_PAYLOAD_MAX_BYTES",
        "HttpResponse",
        "HttpStatusError",
        "REDACTED_HTTP_HEADER_VALUE",
        "SENSITIVE_HTTP_HEADERS",
        "SkillCodecError",
        "SkillFileError",
        "SkillHelperError",
        "SkillHttpError",
        "ToolValidator",
        "atomic_write_bytes",
        "atomic_write_text",
        "bytes_digest",
        "check_cancelled",
        "check_dcc_cancelled",
        "compress_bytes",
        "current_job_id",
        "decompress_bytes",
        "derive_parameters_schema",
        "derive_schema",
        "deserialize_result",
        "dump_json_file",
        "dump_json_text",
        "dump_text",
        "dump_yaml_file",
        "dump_yaml_text",
        "ensure_within_root",
        "error_result",
        "file_digest",
        "from_exception",
        "http_get_json",
        "http_post_json",
        "http_request",
        "json_dumps",
        "json_loads",
        "load_json_file",
        "load_json_text",
        "load_text",
        "load_yaml_file",
        "load_yaml_text",
        "normalize_tool_arguments",
        "normalize_tool_meta",
        "redact_http_headers",
        "run_main",
        "schema_from_doc",
        "serialize_result",
        "skill_entry",
        "skill_error",
        "skill_error_from_exception",
        "skill_error_with_trace",
        "skill_exception",
        "skill_success",
        "skill_warning",
        "success_result",
        "tool_spec_from_callable",
        "validate_action_result",
        "yaml_dumps",
        "yaml_loads",
    ]
)
