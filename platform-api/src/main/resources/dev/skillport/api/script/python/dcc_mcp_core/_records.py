"""``Record``: the dataclass base of the contract types, with ``to_dict`` and ``from_dict``.

``to_dict`` gives JSON-ready data: nested records become dicts, ``None`` values and empty lists
are left out. ``from_dict`` reads such a dict back, building nested records from the field types.
"""

import dataclasses
import typing

__all__ = ["Record"]


def _plain(value):
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    return value


def _build(tp, value):
    origin = getattr(tp, "__origin__", None)
    args = getattr(tp, "__args__", ()) or ()
    if origin is typing.Union:
        members = [a for a in args if a is not type(None)]
        return value if value is None or len(members) != 1 else _build(members[0], value)
    if origin in (list, typing.List) and args and isinstance(value, list):
        return [_build(args[0], v) for v in value]
    if isinstance(tp, type) and issubclass(tp, Record) and isinstance(value, dict):
        return tp.from_dict(value)
    return value


class Record(object):
    """Base of dataclass contract types."""

    def to_dict(self):
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or (isinstance(value, list) and not value):
                continue
            out[f.name] = _plain(value)
        return out

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict):
            raise TypeError("%s.from_dict needs a mapping" % cls.__name__)
        hints = typing.get_type_hints(cls)
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: _build(hints.get(k), v) for k, v in data.items() if k in known})
