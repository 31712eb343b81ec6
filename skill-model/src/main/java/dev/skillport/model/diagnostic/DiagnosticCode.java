package dev.skillport.model.diagnostic;

/**
 * Stable diagnostic codes. The enum constant name is the code printed and served; renaming one is a
 * breaking change. Each code carries its default severity; strict mode raises some warnings to
 * errors.
 */
public enum DiagnosticCode {
  // Discovery and roots.
  ROOT_NOT_DIRECTORY(
      Severity.WARNING,
      "a configured skill root is not an existing directory",
      "create the directory or remove it from the configured skill paths"),
  ROOT_DUPLICATE(
      Severity.NOTICE,
      "a skill root was given twice (same real path)",
      "give each skill root once"),
  SKILL_MD_MISSING(
      Severity.ERROR,
      "a path given as a skill holds no SKILL.md",
      "point at a folder that holds a SKILL.md, or create one"),
  SKILL_MD_LOWERCASE(
      Severity.WARNING,
      "the skill file is named skill.md instead of SKILL.md",
      "rename skill.md to SKILL.md"),
  SKILL_MD_UNREADABLE(
      Severity.ERROR,
      "SKILL.md could not be read",
      "check the file's permissions and that it is a regular file"),
  SKILL_MD_ENCODING(Severity.ERROR, "SKILL.md is not valid UTF-8", "save SKILL.md as UTF-8"),
  SKILL_MD_TOO_LARGE(
      Severity.ERROR,
      "SKILL.md exceeds the size limit; it was not read",
      "keep SKILL.md short; move long material into references/ files"),
  DISCOVERY_DEPTH_LIMIT(
      Severity.NOTICE,
      "discovery stopped descending at the depth limit",
      "give the deeper folder as a skill root of its own"),
  SKILL_DUPLICATE_PATH(
      Severity.NOTICE,
      "the same skill folder was reached twice",
      "give each skill folder through one root only"),
  DISCOVERY_SYMLINK_SKIPPED(
      Severity.NOTICE,
      "discovery did not follow a directory link that leaves its root",
      "give the link's target as a skill root of its own"),
  SKILL_NESTED(
      Severity.NOTICE,
      "a SKILL.md inside another skill's folder is not loaded",
      "move the inner skill out of the outer skill's folder, or give its folder as a root of its own"),

  // SKILL.md frontmatter.
  FRONTMATTER_MISSING(
      Severity.ERROR,
      "SKILL.md does not start with a --- frontmatter fence",
      "start SKILL.md with a line '---', the YAML frontmatter, and another '---' line"),
  FRONTMATTER_UNTERMINATED(
      Severity.ERROR,
      "the frontmatter has no closing --- line",
      "close the frontmatter with a line that is exactly '---'"),
  FRONTMATTER_BOM(
      Severity.WARNING,
      "SKILL.md starts with a UTF-8 byte order mark",
      "save SKILL.md as UTF-8 without a byte order mark"),
  FRONTMATTER_YAML(
      Severity.ERROR,
      "the frontmatter is not valid YAML",
      "fix the YAML syntax at the reported line"),
  FRONTMATTER_NOT_MAPPING(
      Severity.ERROR,
      "the frontmatter is not a YAML mapping",
      "write the frontmatter as 'key: value' lines"),
  FRONTMATTER_TOO_LARGE(
      Severity.ERROR,
      "the frontmatter exceeds the size limit",
      "move large content into the Markdown body or a sibling file"),
  FRONTMATTER_UNKNOWN_KEY(
      Severity.WARNING,
      "a top-level frontmatter key the format does not allow",
      "move the key under metadata (dcc-mcp extensions under metadata.dcc-mcp)"),
  YAML_ALIAS_LIMIT(
      Severity.ERROR,
      "the YAML uses more aliases than allowed",
      "write the values out instead of repeating aliases"),
  YAML_DEPTH_LIMIT(
      Severity.ERROR, "the YAML nests deeper than allowed", "flatten the nested structure"),
  YAML_DUPLICATE_KEY(
      Severity.ERROR, "a YAML mapping repeats a key", "keep one of the repeated keys"),
  YAML_KEY_NOT_STRING(
      Severity.ERROR, "a YAML mapping key is not a plain string", "use plain text keys"),
  NAME_MISSING(
      Severity.WARNING,
      "the frontmatter has no name; the directory name is used",
      "add 'name:' with the folder's name"),
  NAME_INVALID(
      Severity.ERROR,
      "the skill name breaks the naming rules",
      "use 1-64 lowercase letters, digits and single hyphens, not at either end"),
  NAME_MISMATCH(
      Severity.WARNING,
      "the skill name differs from its directory name",
      "make the name equal the folder name, or rename the folder"),
  DESCRIPTION_MISSING(
      Severity.ERROR,
      "the frontmatter has no non-empty description",
      "add a description: what the skill does and when to use it"),
  DESCRIPTION_TOO_LONG(
      Severity.ERROR,
      "the description is longer than 1024 characters",
      "shorten the description to 1024 characters; details belong in the body"),
  COMPATIBILITY_TOO_LONG(
      Severity.ERROR,
      "compatibility is longer than 500 characters",
      "shorten compatibility to 500 characters"),
  FIELD_TYPE_INVALID(
      Severity.ERROR,
      "a frontmatter field has the wrong type",
      "give the field the type the format asks for (usually a string)"),
  METADATA_NOT_MAPPING(
      Severity.ERROR, "metadata is not a mapping", "write metadata as a mapping of keys to values"),
  METADATA_LEGACY_FLAT(
      Severity.WARNING,
      "metadata uses the deprecated flat dcc-mcp.* keys",
      "nest the keys: metadata: {dcc-mcp: {tools: tools.yaml}}"),
  ALLOWED_TOOLS_LIST(
      Severity.WARNING,
      "allowed-tools is a YAML list instead of a string",
      "write allowed-tools as one space-separated string"),

  // metadata.dcc-mcp.
  DCC_MCP_NOT_MAPPING(
      Severity.ERROR,
      "metadata.dcc-mcp is not a mapping",
      "write metadata.dcc-mcp as a mapping of keys to values"),
  DCC_MCP_UNKNOWN_KEY(
      Severity.NOTICE,
      "metadata.dcc-mcp has a key Skillport does not know",
      "check the key's spelling against the skill format; unknown keys are kept but unused"),
  DCC_MCP_VALUE_INVALID(
      Severity.WARNING,
      "a metadata.dcc-mcp value has the wrong type or form",
      "give the value the type and form the skill format documents"),

  // Sibling files.
  SIBLING_MISSING(
      Severity.ERROR,
      "a sibling file named in metadata does not exist",
      "create the file or fix the path, which is relative to the skill folder"),
  SIBLING_ESCAPES(
      Severity.ERROR,
      "a sibling path leaves the skill directory",
      "keep sibling files inside the skill folder and name them relative to it"),
  SIBLING_UNREADABLE(
      Severity.ERROR,
      "a sibling file could not be read",
      "check that the file is a regular, readable UTF-8 file"),
  SIBLING_YAML(
      Severity.ERROR,
      "a sibling file is not valid YAML",
      "fix the YAML syntax at the reported line"),
  SIBLING_SCHEMA(
      Severity.ERROR,
      "a sibling file does not have the required shape",
      "give the file the shape the skill format documents"),
  SIBLING_GLOB_EMPTY(
      Severity.WARNING,
      "a sibling glob matched no file",
      "fix the glob (relative to the skill folder) or add the files"),
  SIBLING_TOO_LARGE(
      Severity.ERROR,
      "a sibling file exceeds the size or value-count limit",
      "split the file or shorten it"),

  // Tools and groups.
  TOOL_ENTRY_INVALID(
      Severity.WARNING,
      "a tool entry is invalid and was dropped",
      "give the entry the shape the skill format documents for tools"),
  TOOL_NAME_INVALID(
      Severity.WARNING,
      "a tool name is empty or unusable",
      "use 1-64 letters, digits, '_', '.' or '-', not starting with '.' or '-'"),
  TOOL_DUPLICATE_NAME(
      Severity.WARNING,
      "two tool entries share a name; the later was dropped",
      "give each tool of a skill its own name"),
  TOOL_EXECUTION_INVALID(
      Severity.WARNING,
      "a tool has an unknown execution mode",
      "use execution: sync (the default) or async"),
  TOOL_DEFERRED(
      Severity.WARNING,
      "a tool uses deferred:, which is replaced by execution: async",
      "use execution: async to run calls as jobs"),
  TOOL_SCHEMA_INVALID(
      Severity.WARNING,
      "a tool schema is not a valid JSON Schema 2020-12",
      "fix the schema so it is valid JSON Schema 2020-12"),
  TOOL_SCHEMA_NOT_OBJECT(
      Severity.WARNING,
      "a tool schema's root is not an object schema, as MCP requires",
      "give the schema type: object with the values under properties"),
  TOOL_AFFINITY_INVALID(
      Severity.WARNING,
      "a tool has an unknown thread affinity",
      "use thread-affinity: any (the default) or main"),
  TOOL_PATHS_INVALID(
      Severity.WARNING,
      "a tool's paths: declaration is invalid; the entry was dropped so it never runs unguarded",
      "map each path argument to inside: [skill, roots, workdir, allowed or allowed:NAME]"),
  TOOL_KEY_ALIAS(
      Severity.NOTICE, "a tool uses an accepted alias for a key", "use the documented key name"),
  TOOL_KEY_UNKNOWN(
      Severity.NOTICE,
      "a tool entry has a key the format does not define; ignored",
      "check the key's spelling against the skill format, or move it under a documented key"),
  TOOL_GROUP_UNKNOWN(
      Severity.WARNING,
      "a tool names a group the skill does not declare",
      "declare the group under groups:, or fix the tool's group: value"),
  TOOL_SOURCE_MISSING(
      Severity.WARNING,
      "a tool's source_file does not exist",
      "fix source_file, which is relative to the skill folder"),
  TOOL_UNBOUND(
      Severity.NOTICE,
      "a tool is bound to no code; calls return NO_HANDLER",
      "declare handler or source_file, or add a script named after the tool under scripts/"),
  HANDLER_NOT_REGISTERED(
      Severity.ERROR,
      "a tool names a Java handler that no installed plugin or SDK jar registers; its skill is"
          + " skipped",
      "install the plugin or SDK jar that provides the handler, or correct the handler id"),
  GROUP_INVALID(
      Severity.WARNING,
      "a group entry is invalid and was dropped",
      "give the group entry a name and a list of tools"),
  GROUP_DUPLICATE(
      Severity.WARNING,
      "two groups share a name; the later was dropped",
      "give each group of a skill its own name"),
  GROUP_UNKNOWN_TOOL(
      Severity.WARNING,
      "a group lists a tool the skill does not declare",
      "list only tools the skill declares"),
  GROUP_TOOL_CONFLICT(
      Severity.WARNING,
      "a tool is claimed by two groups; the tool's own group: field wins",
      "put each tool in one group"),

  // Prompts, resources, workflows.
  PROMPT_INVALID(
      Severity.WARNING,
      "a prompt spec is invalid and was dropped",
      "give the prompt a name and a template"),
  PROMPT_DUPLICATE(
      Severity.WARNING,
      "two prompts share a name; the later was dropped",
      "give each prompt of a skill its own name"),
  PROMPT_PLACEHOLDER_UNKNOWN(
      Severity.WARNING,
      "a prompt template uses an undeclared argument",
      "declare each {{placeholder}} under arguments:"),
  RESOURCE_INVALID(
      Severity.WARNING,
      "a resource entry is invalid and was dropped",
      "give the resource entry a uri and a source file"),
  RESOURCE_DUPLICATE(
      Severity.WARNING,
      "two resources share a URI; the later was dropped",
      "give each resource its own uri"),
  WORKFLOW_INVALID(
      Severity.WARNING,
      "a workflow spec is invalid and was dropped",
      "give the workflow a name and a list of steps"),
  WORKFLOW_STEP_KIND_UNKNOWN(
      Severity.WARNING,
      "a workflow step has an unknown kind",
      "use one of the step kinds: tool, foreach, parallel, branch, approve"),
  WORKFLOW_STEP_DUPLICATE_ID(
      Severity.WARNING, "two workflow steps share an id", "give each step its own id"),
  WORKFLOW_JSONPATH_INVALID(
      Severity.WARNING,
      "a workflow foreach uses an invalid JSONPath",
      "fix the JSONPath expression, e.g. $.steps.list.output.items"),
  WORKFLOW_TEMPLATE_ROOT_UNKNOWN(
      Severity.WARNING,
      "a workflow template names an unknown root",
      "template roots are inputs, steps and item"),
  WORKFLOW_TOOL_UNKNOWN(
      Severity.WARNING,
      "a workflow step calls a tool the skill does not declare",
      "call a tool the skill declares"),

  // External requirements and bridges.
  EXTERNAL_DEPS_INVALID(
      Severity.WARNING,
      "external-deps is not of the documented shape",
      "write external-deps as {tools: [{type: mcp|env_var|bin, value}]}"),
  EXTERNAL_DEP_UNMET(
      Severity.NOTICE,
      "an external requirement is not met on this machine",
      "install or configure the requirement on this machine"),
  RUNTIMES_INVALID(
      Severity.WARNING,
      "runtimes is not of the documented shape",
      "write runtimes as a list of names or {name, ...} entries"),
  MCP_BRIDGE_INVALID(
      Severity.ERROR,
      "the MCP bridge file is invalid",
      "give the bridge file the documented shape: {command, args, env, ...}"),
  MCP_BRIDGE_SELF_TRUST(
      Severity.NOTICE,
      "an MCP bridge file declares trust, which only the server's operator gives",
      "remove the trust key; the operator trusts a bridge with serve --trust-bridge or a trust"
          + " file"),
  MCP_BRIDGE_UNTRUSTED(
      Severity.WARNING,
      "the operator has not trusted this MCP bridge, so it is not started",
      "review its command, then serve --trust-bridge NAME, or run skillport trust-bridge DIR"),
  MCP_BRIDGE_CHANGED(
      Severity.WARNING,
      "a trusted MCP bridge changed since it was trusted; it is stopped until trusted again",
      "review the change, then trust the bridge again (skillport trust-bridge DIR), or restart"
          + " with --trust-bridge NAME"),
  MCP_BRIDGE_SECRET_INLINE(
      Severity.WARNING,
      "an MCP bridge writes a secret value in its file; it is not started",
      "take the value from the server's environment: NAME: ${NAME}"),
  MCP_BRIDGE_UNVERIFIABLE(
      Severity.WARNING,
      "what an MCP bridge runs cannot be read in full (its folder is over the limits, a file is"
          + " unreadable, its command names no program); it is not started",
      "the message says what; a bridge's folder is trusted whole, so keep it within 1000 files"
          + " and 64 MiB"),
  MCP_BRIDGE_START_FAILED(
      Severity.WARNING,
      "the bridged MCP server could not be started or did not complete its handshake",
      "run the bridge's command by hand to see why; its stderr tail is in the message"),
  MCP_BRIDGE_CRASHED(
      Severity.WARNING,
      "the bridged MCP server ended unexpectedly; it is restarted with backoff",
      "see the stderr tail in the message; fix the server or its configuration"),
  MCP_BRIDGE_PROTOCOL(
      Severity.WARNING,
      "the bridged MCP server broke the protocol (output that is not JSON-RPC, a message too"
          + " large)",
      "a stdio MCP server must write only JSON-RPC messages, one per line, to stdout"),
  MCP_BRIDGE_TOOL_DROPPED(
      Severity.WARNING,
      "a tool, prompt or resource of the bridged MCP server was not mounted",
      "the message says why: a name that cannot be listed, a schema too large or not an object,"
          + " or more than the limit"),

  // Across skills.
  DEPENDENCY_MISSING(
      Severity.WARNING,
      "a dependency is not available; the skill waits for it",
      "add the skill it depends on to a skill root, or remove the dependency"),
  DEPENDENCY_CYCLE(
      Severity.ERROR,
      "skills depend on each other in a cycle",
      "remove one dependency to break the cycle"),
  SHADOWED(
      Severity.NOTICE,
      "another skill with the same name wins by scope or root order",
      "rename one of the skills if both are needed"),

  // The operator's allow and deny lists.
  SKILL_DENIED(
      Severity.NOTICE,
      "the operator's allow or deny list keeps the skill from being loaded or called",
      "ask the operator; serve --allow-skill and --deny-skill decide"),
  TOOL_DENIED(
      Severity.NOTICE,
      "the operator's allow or deny list removed a tool from its skill",
      "ask the operator; serve --allow-tool and --deny-tool decide"),

  // The loader itself.
  LOADER_INTERNAL_ERROR(
      Severity.ERROR,
      "reading the skill failed unexpectedly; others still load",
      "report this together with the skill folder"),

  // Host-adapter plugins.
  PLUGIN_INVALID(
      Severity.ERROR,
      "a plugin could not be loaded (manifest, classes or extensions)",
      "rebuild the plugin against this server's platform API"),
  PLUGIN_START_FAILED(
      Severity.ERROR,
      "a plugin or its host adapter failed to start",
      "see the plugin's log for why it failed to start"),
  PLUGIN_BUNDLES_API(
      Severity.ERROR,
      "a plugin bundles its own copy of the platform API, Jackson or SLF4J",
      "declare the platform API, Jackson and SLF4J as provided dependencies of the plugin");

  private final Severity defaultSeverity;
  private final String summary;
  private final String hint;

  DiagnosticCode(Severity defaultSeverity, String summary, String hint) {
    this.defaultSeverity = defaultSeverity;
    this.summary = summary;
    this.hint = hint;
  }

  /** The severity this code has unless strict mode raises it. */
  public Severity defaultSeverity() {
    return defaultSeverity;
  }

  /** One line saying what the code means, for {@code explain}-style help. */
  public String summary() {
    return summary;
  }

  /**
   * How to fix a problem of this kind, in general; a diagnostic without a hint of its own carries
   * this one.
   */
  public String hint() {
    return hint;
  }

  /**
   * Whether {@code --strict} turns this code's warnings into errors. Strict mode follows the
   * upstream loaders: unknown keys and per-entry problems fail the skill. A root that is not a
   * directory stays a warning: a misconfigured path is reported, never fatal. An {@code
   * allowed-tools} list stays a warning too: upstream and the Agent Skills reference validator both
   * accept it.
   */
  public boolean raisedByStrict() {
    return defaultSeverity == Severity.WARNING
        && this != ROOT_NOT_DIRECTORY
        && this != ALLOWED_TOOLS_LIST
        && this != NAME_MISSING
        && this != DEPENDENCY_MISSING
        && this != SIBLING_GLOB_EMPTY
        && !isServerSide();
  }

  /**
   * Whether the running server reports this code about a skill's bridge (trust, the bridged
   * server's life) or the operator's allow and deny lists, rather than the loader about its files:
   * strict loading does not apply to it.
   */
  public boolean isServerSide() {
    return switch (this) {
      case MCP_BRIDGE_UNTRUSTED,
          MCP_BRIDGE_CHANGED,
          MCP_BRIDGE_SECRET_INLINE,
          MCP_BRIDGE_UNVERIFIABLE,
          MCP_BRIDGE_START_FAILED,
          MCP_BRIDGE_CRASHED,
          MCP_BRIDGE_PROTOCOL,
          MCP_BRIDGE_TOOL_DROPPED,
          SKILL_DENIED,
          TOOL_DENIED ->
          true;
      default -> false;
    };
  }
}
