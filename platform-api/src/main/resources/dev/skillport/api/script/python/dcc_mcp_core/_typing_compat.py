"""The typing names skill scripts import from here, whatever the interpreter's Python version."""

import typing

__all__ = ["Literal", "Protocol", "TypedDict", "runtime_checkable"]

try:
    from typing import Literal, Protocol, TypedDict, runtime_checkable
except ImportError:  # Python 3.7 (Maya 2022, older hosts): typing_extensions if present
    try:
        from typing_extensions import Literal, Protocol, TypedDict, runtime_checkable
    except ImportError:

        class _Alias(object):
            """Subscriptable stand-in: ``Literal["a", "b"]`` keeps its values in ``__args__``."""

            def __init__(self, name):
                self._name = name

            def __getitem__(self, items):
                alias = _Alias(self._name)
                alias.__origin__ = self
                alias.__args__ = items if isinstance(items, tuple) else (items,)
                return alias

            def __repr__(self):
                return "typing." + self._name

        Literal = _Alias("Literal")
        Protocol = object
        TypedDict = dict

        def runtime_checkable(cls):
            return cls
