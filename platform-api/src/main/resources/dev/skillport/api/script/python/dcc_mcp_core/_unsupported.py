"""Placeholders for the dcc-mcp-core names that mean nothing in a Skillport script.

dcc-mcp-core is an MCP server that runs inside the host; most of its exports build, configure or
query that server (``McpHttpServer``, ``DccServerBase``, gateways, sidecars, skill catalogs). Under
Skillport the server is Skillport itself, so those names have nothing to act on in a script. Each
still imports, so a script that only imports one (or imports it in a fallback branch) runs; using
it (calling, instantiating, reading an attribute) raises :class:`NotInSkillportScript`, which says
so and names the Skillport feature to use instead.
"""

__all__ = ["NotInSkillportScript", "placeholder", "placeholder_module"]

_INSTEAD = {
    "_core": "Skillport's server does this itself",
    "_server": "Skillport is the server; serve skills with `skillport serve`",
    "_server.options": "configure the server with `skillport serve` options",
    "_server.gateway_guardian": "run one gateway with `skillport serve --gateway`",
    "_server.config": "configure the server with `skillport serve` options",
    "constants": "Skillport reads skill paths from `skillport serve --skills`",
    "install_lifecycle": "install skills with `skillport add`",
    "sidecar": "Skillport's host adapters run the host",
    "factory": "serve skills with `skillport serve`",
    "dcc_server": "serve skills with `skillport serve`",
    "server_base": "serve skills with `skillport serve`",
    "bridge": "Skillport's host adapters connect to the host",
    "elicitation": "ask the client with an `::ask` line on stderr (see docs/writing-skills.md)",
    "workflow_yaml": "declare workflows in the skill; Skillport runs them",
    "usd_resources": "Skillport serves resources from the skill's `resources`",
    "docs_resources": "Skillport serves resources from the skill's `resources`",
}


class NotInSkillportScript(NotImplementedError):
    """Raised when a script uses a dcc-mcp-core name that has no meaning under Skillport."""

    def __init__(self, name, module):
        instead = _INSTEAD.get(module, "it belongs to dcc-mcp-core's own server, which Skillport replaces")
        super().__init__(
            "dcc_mcp_core.%s has no meaning in a Skillport script (%s)" % (name, instead)
        )
        self.name = name
        self.module = module


class _PlaceholderType(type):
    def __call__(cls, *args, **kwargs):
        raise NotInSkillportScript(cls._name, cls._module)

    def __getattr__(cls, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        raise NotInSkillportScript("%s.%s" % (cls._name, attr), cls._module)

    def __repr__(cls):
        return "<dcc_mcp_core.%s: not available in a Skillport script>" % cls._name

    def __bool__(cls):
        return False


def placeholder(name, module):
    """A stand-in class for ``name``: importing it works, using it raises NotInSkillportScript.

    A class, so that a script may still subclass it or name it in a type hint.
    """
    return _PlaceholderType(name, (), {"_name": name, "_module": module, "__module__": "dcc_mcp_core"})


def placeholder_module(fullname, module):
    """A module whose every public attribute is a placeholder (for ``dcc_mcp_core.<module>``)."""
    import types

    mod = types.ModuleType(fullname, "dcc-mcp-core's %s: no meaning in a Skillport script" % module)
    cache = {}

    def __getattr__(attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        if attr not in cache:
            cache[attr] = placeholder(attr, module)
        return cache[attr]

    mod.__getattr__ = __getattr__
    mod.__all__ = []
    return mod
