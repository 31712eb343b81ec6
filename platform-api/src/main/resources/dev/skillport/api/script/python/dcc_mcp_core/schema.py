"""JSON Schemas from Python type hints: ``derive_schema``, ``derive_parameters_schema``,
``schema_from_doc`` and ``tool_spec_from_callable``.

Dataclasses and TypedDicts become object schemas (a field's ``metadata["description"]`` becomes
its description, a field without a default is required), ``Literal`` and ``Enum`` become ``enum``,
``Optional[X]`` accepts null, ``List``/``Tuple``/``Dict`` become arrays (fixed tuples with
``prefixItems``) and objects. An untyped parameter is a ``TypeError``: a schema that accepts
anything by accident helps no one.
"""

import dataclasses
import datetime
import enum
import inspect
import pathlib
import typing
import uuid

__all__ = ["derive_parameters_schema", "derive_schema", "schema_from_doc", "tool_spec_from_callable"]

_NONE = type(None)


def _origin(tp):
    return getattr(typing, "get_origin", lambda t: getattr(t, "__origin__", None))(tp)


def _args(tp):
    return getattr(typing, "get_args", lambda t: getattr(t, "__args__", ()))(tp) or ()


def _hints(obj):
    try:
        return typing.get_type_hints(obj)
    except Exception:  # forward references that cannot be resolved: read the raw annotations
        return dict(getattr(obj, "__annotations__", {}) or {})


def _leaf(tp):
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if tp is bytes:
        return {"type": "string", "contentEncoding": "base64"}
    if tp is _NONE or tp is None:
        return {"type": "null"}
    if tp is datetime.datetime:
        return {"type": "string", "format": "date-time"}
    if tp is datetime.date:
        return {"type": "string", "format": "date"}
    if tp is uuid.UUID:
        return {"type": "string", "format": "uuid"}
    if isinstance(tp, type) and issubclass(tp, pathlib.PurePath):
        return {"type": "string"}
    if tp is typing.Any:
        return {}
    return None


def _enum_values(values):
    kinds = {type(v) for v in values}
    schema = {"enum": list(values)}
    for py, name in ((bool, "boolean"), (int, "integer"), (str, "string")):
        if kinds == {py}:
            schema["type"] = name
    return schema


def _is_literal(tp):
    origin = _origin(tp)
    return origin is not None and getattr(origin, "_name", None) == "Literal" or repr(origin).endswith("Literal")


def _derive(tp):
    leaf = _leaf(tp)
    if leaf is not None:
        return leaf
    if _is_literal(tp):
        return _enum_values(_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        schema = _enum_values([m.value for m in tp])
        schema["title"] = tp.__name__
        return schema
    origin = _origin(tp)
    args = _args(tp)
    if origin is typing.Union:
        members = [a for a in args if a is not _NONE]
        schemas = [_derive(a) for a in members]
        if len(members) < len(args):
            schemas.append({"type": "null"})
        return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    if origin in (list, set, frozenset):
        return {"type": "array", "items": _derive(args[0]) if args else {}}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _derive(args[0])}
        if args:
            return {
                "type": "array",
                "prefixItems": [_derive(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        return {"type": "array"}
    if origin is dict:
        return {"type": "object", "additionalProperties": _derive(args[1]) if len(args) == 2 else {}}
    if tp in (list, tuple, set):
        return {"type": "array"}
    if tp is dict:
        return {"type": "object"}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass(tp)
    if isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__total__"):
        return _typeddict(tp)
    raise TypeError("no JSON Schema for the type %r" % (tp,))


def _dataclass(tp):
    hints = _hints(tp)
    properties, required = {}, []
    for f in dataclasses.fields(tp):
        schema = dict(_derive(hints.get(f.name, f.type)))
        description = (f.metadata or {}).get("description")
        if description:
            schema["description"] = str(description)
        if f.default is not dataclasses.MISSING:
            schema["default"] = _jsonable(f.default)
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            schema["default"] = _jsonable(f.default_factory())  # type: ignore[misc]
        else:
            required.append(f.name)
        properties[f.name] = schema
    out = {"type": "object", "title": tp.__name__, "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = required
    doc = inspect.getdoc(tp)
    if doc and not doc.startswith(tp.__name__ + "("):
        out["description"] = doc.splitlines()[0]
    return out


def _typeddict(tp):
    hints = _hints(tp)
    required = sorted(getattr(tp, "__required_keys__", hints.keys() if tp.__total__ else ()))
    out = {
        "type": "object",
        "title": tp.__name__,
        "properties": {k: _derive(v) for k, v in hints.items()},
        "additionalProperties": False,
    }
    if required:
        out["required"] = required
    return out


def _jsonable(value):
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, pathlib.PurePath):
        return str(value)
    return value


def derive_schema(tp, allow_additional=False):
    """The JSON Schema of a dataclass, TypedDict, enum, ``Literal`` or primitive type."""
    schema = _derive(tp)
    if allow_additional:
        _open(schema)
    return schema


def _open(schema):
    if isinstance(schema, dict):
        if schema.get("additionalProperties") is False:
            schema["additionalProperties"] = True
        for value in schema.values():
            if isinstance(value, dict):
                _open(value)
            elif isinstance(value, list):
                for item in value:
                    _open(item)


def derive_parameters_schema(fn):
    """An object schema with one property per typed parameter of ``fn`` (``*args``/``**kw`` skipped)."""
    hints = _hints(fn)
    described = schema_from_doc(fn)
    properties, required, untyped = {}, [], []
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if name not in hints:
            untyped.append(name)
            continue
        schema = dict(_derive(hints[name]))
        if name in described:
            schema["description"] = described[name]
        if param.default is param.empty:
            required.append(name)
        else:
            schema["default"] = _jsonable(param.default)
        properties[name] = schema
    if untyped:
        raise TypeError(
            "%s: parameters without a type annotation: %s" % (getattr(fn, "__name__", fn), ", ".join(untyped))
        )
    out = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = required
    return out


def schema_from_doc(fn):
    """``{parameter: description}`` from a numpy-style (``Parameters``) or Google-style (``Args:``) docstring."""
    lines = (inspect.getdoc(fn) or "").splitlines()
    out = {}
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line == "Parameters" and i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}:
            i += 2
            while i < len(lines) and lines[i].strip() and not (
                i + 1 < len(lines) and set(lines[i + 1].strip() or "x") == {"-"}
            ):
                head = lines[i]
                if not head.startswith(" ") and head.strip():
                    name = head.split(":")[0].strip()
                    text = []
                    i += 1
                    while i < len(lines) and lines[i].startswith(" "):
                        text.append(lines[i].strip())
                        i += 1
                    if name:
                        out[name] = " ".join(text).strip()
                    continue
                i += 1
            continue
        if line in ("Args:", "Arguments:", "Parameters:"):
            i += 1
            current = None
            while i < len(lines) and (lines[i].startswith(" ") or not lines[i].strip()):
                text = lines[i].strip()
                if not text:
                    i += 1
                    continue
                indent = len(lines[i]) - len(lines[i].lstrip())
                if ":" in text and (current is None or indent <= base):
                    base = indent
                    name, _, rest = text.partition(":")
                    current = name.split("(")[0].strip()
                    out[current] = rest.strip()
                elif current:
                    out[current] = (out[current] + " " + text).strip()
                i += 1
            continue
        i += 1
    return out


def _is_object_type(tp):
    return (dataclasses.is_dataclass(tp) and isinstance(tp, type)) or (
        isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__total__")
    )


def tool_spec_from_callable(handler, name=None, description=None, category="general", version="1.0.0"):
    """A ``ToolSpec`` whose input schema comes from ``handler``'s annotations.

    A single dataclass or TypedDict parameter is the whole input schema; otherwise each typed
    parameter is a property. A typed return annotation becomes the output schema.
    """
    from ._tool_registration import ToolSpec

    resolved = name or getattr(handler, "__name__", None)
    if not resolved:
        raise TypeError("tool_spec_from_callable: the handler has no __name__; pass name=...")
    doc = inspect.getdoc(handler) or ""
    first = next((l.strip() for l in doc.splitlines() if l.strip()), "")
    hints = _hints(handler)
    params = [
        p
        for p in inspect.signature(handler).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if len(params) == 1 and _is_object_type(hints.get(params[0].name)):
        input_schema = derive_schema(hints[params[0].name])
    else:
        input_schema = derive_parameters_schema(handler)
    returned = hints.get("return")
    output_schema = None
    if returned is not None and returned is not _NONE:
        try:
            output_schema = derive_schema(returned)
        except TypeError:
            output_schema = None
    return ToolSpec(
        name=resolved,
        description=description if description is not None else first,
        input_schema=input_schema,
        handler=handler,
        category=category,
        version=version,
        output_schema=output_schema,
    )
