"""``ToolSpec``: a tool described in Python (name, description, schemas, handler).

Scripts build one with ``tool_spec_from_callable`` to read the schemas their annotations give.
Registering tools on a server from a script (``register_tools``) has no meaning under Skillport:
tools are declared in the skill (``tools.yaml`` or SKILL.md) and served by Skillport.
"""

import dataclasses
import typing

from ._unsupported import placeholder

__all__ = ["ToolSpec", "register_tools"]


@dataclasses.dataclass
class ToolSpec:
    """One tool: its MCP name, description, input schema, handler and optional output schema."""

    name: str
    description: str
    input_schema: typing.Dict[str, typing.Any]
    handler: typing.Callable[..., typing.Any]
    category: str = "general"
    tags: typing.Optional[typing.List[str]] = None
    version: str = "1.0.0"
    search_aliases: typing.Optional[typing.List[str]] = None
    output_schema: typing.Optional[typing.Dict[str, typing.Any]] = None


register_tools = placeholder("register_tools", "_tool_registration")
