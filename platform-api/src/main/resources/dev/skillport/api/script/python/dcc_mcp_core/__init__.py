"""Skillport's ``dcc_mcp_core``: the script API of dcc-mcp-core for skill scripts run by Skillport.

Scripts written for dcc-mcp-core run unchanged: Skillport puts this package on their import path.
Every name dcc-mcp-core 0.20.8 exports imports from here. The ones a skill script uses do their
work here, implemented on Skillport's script protocol: the result helpers and ``run_main``
(``skill``), ``skills_helper`` (JSON, YAML, bounded HTTP and files, validation), cancellation
(``check_cancelled`` reads Skillport's cancel signal), ``tool_spec_from_callable`` and the schema
helpers, ``validate_skill``, ``Capturer`` (through a host that can picture its scene),
``connect_ipc`` (to the host the script runs in), ``adapter_contracts``, ``asset_import``,
``spatial`` and the in-process diagnostics (``SandboxContext`` and its ``AuditLog``,
``ToolRecorder``, ``PyProcessMonitor``). The others belong to dcc-mcp-core's own server, which Skillport replaces: they import,
and using one raises ``NotInSkillportScript`` (a ``NotImplementedError``) saying so.
"""

import importlib.abc
import importlib.machinery
import sys

from . import _upstream
from ._unsupported import NotInSkillportScript, placeholder, placeholder_module
from .adapter_contracts import *  # noqa: F401,F403 - the contracts are top-level names upstream
from .asset_import import *  # noqa: F401,F403
from .cancellation import *  # noqa: F401,F403
from .capture import CaptureBackendKind, CaptureFrame, CaptureResult, CaptureTarget, CaptureUnavailable, Capturer
from .diagnostics import *  # noqa: F401,F403
from .ipc import TransportAddress, connect_ipc
from .result_envelope import ToolResult, error_result, success_result
from .schema import derive_parameters_schema, derive_schema, schema_from_doc, tool_spec_from_callable
from .skill import (
    audio_content,
    image_content,
    read_params,
    resource_content,
    run_main,
    skill_entry,
    skill_error,
    skill_error_with_trace,
    skill_exception,
    skill_success,
    skill_warning,
    text_content,
)
from .skills_helper import (
    ToolValidator,
    deserialize_result,
    from_exception,
    json_dumps,
    json_loads,
    serialize_result,
    validate_action_result,
    yaml_dumps,
    yaml_loads,
)
from .spatial import SpatialConvention, plan_spatial_conversion
from ._tool_registration import ToolSpec
from ._typing_compat import Literal
from .validation import SkillValidationReport, validate_skill

__version__ = _upstream.UPSTREAM_VERSION
__author__ = "Skillport (the script API of dcc-mcp-core, MIT)"
SKILLPORT_COMPAT = True


_implemented = []
for _module, _names in _upstream.NAMES_BY_MODULE.items():
    for _name in _names:
        if _name in globals():
            _implemented.append(_name)
        else:
            globals()[_name] = placeholder(_name, _module)
IMPLEMENTED = sorted(_implemented)
"""The upstream names that work here; every other upstream name is a placeholder."""

_OWN = [
    "CaptureUnavailable",
    "IMPLEMENTED",
    "Literal",
    "NotInSkillportScript",
    "SKILLPORT_COMPAT",
    "SkillValidationReport",
    "audio_content",
    "image_content",
    "read_params",
    "resource_content",
    "text_content",
]
__all__ = sorted(
    {n for names in _upstream.NAMES_BY_MODULE.values() for n in names} | {"__author__", "__version__"} | set(_OWN)
)


class _UpstreamModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``import dcc_mcp_core.<module>`` work for every module upstream has and this lacks."""

    def find_spec(self, fullname, path=None, target=None):
        prefix = __name__ + "."
        if fullname.startswith(prefix) and fullname[len(prefix):] in _upstream.MODULES:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = placeholder_module(spec.name, spec.name[len(__name__) + 1:])
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


# Last on the path: the package's own modules are found first.
if not any(isinstance(f, _UpstreamModules) for f in sys.meta_path):
    sys.meta_path.append(_UpstreamModules())
