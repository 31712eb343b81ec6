"""``ToolResult``: the result envelope as a small dataclass.

``ToolResult.ok(...)`` / ``ToolResult.fail(...)`` (also spelled ``success_`` / ``error_``) build
one; ``to_dict()`` gives the envelope a script prints, leaving out empty fields.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, Optional

__all__ = ["ToolResult", "success_result", "error_result"]


@dataclass
class ToolResult:
    success: bool = True
    message: str = ""
    prompt: Optional[str] = None
    error: Optional[str] = None
    context: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def success_(cls, message, prompt=None, **context):
        return cls(True, message, prompt, None, dict(context))

    @classmethod
    def error_(cls, message, error=None, prompt=None, **context):
        return cls(False, message, prompt, error or message, dict(context))

    ok = success_
    fail = error_

    @classmethod
    def not_found(cls, kind, name):
        return cls.error_("%s '%s' not found" % (kind, name), error="not_found")

    @classmethod
    def invalid_input(cls, message):
        return cls.error_(message, error="invalid_input")

    def to_dict(self):
        out = {"success": self.success, "message": self.message}
        if self.prompt:
            out["prompt"] = self.prompt
        if self.error:
            out["error"] = self.error
        if self.context:
            out["context"] = dict(self.context)
        return out


def success_result(message, prompt=None, **context):
    """A successful ``ToolResult``; keyword arguments form its context."""
    return ToolResult.success_(message, prompt=prompt, **context)


def error_result(message, error=None, prompt=None, **context):
    """A failed ``ToolResult``."""
    return ToolResult.error_(message, error=error, prompt=prompt, **context)
