"""Skillport's stand-in for the ``dcc_mcp_core`` helpers that skill scripts import.

Scripts written for dcc-mcp-core (``from dcc_mcp_core.skill import skill_success, skill_entry,
run_main``) run unchanged under Skillport, which puts this package on their import path. It holds
only the pure-Python script helpers, no server and no host bindings: importing anything else from
it fails with ``ImportError`` as usual.
"""

from .result_envelope import ToolResult, error_result, success_result
from .skill import (
    audio_content,
    image_content,
    read_params,
    resource_content,
    run_main,
    skill_entry,
    skill_error,
    skill_exception,
    skill_success,
    skill_warning,
    text_content,
)

__version__ = "0.1.0"
SKILLPORT_COMPAT = True

__all__ = [
    "ToolResult",
    "audio_content",
    "error_result",
    "image_content",
    "read_params",
    "resource_content",
    "run_main",
    "skill_entry",
    "skill_error",
    "skill_exception",
    "skill_success",
    "skill_warning",
    "success_result",
    "text_content",
]
