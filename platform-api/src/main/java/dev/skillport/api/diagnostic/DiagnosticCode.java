package dev.skillport.api.diagnostic;

/**
 * Stable diagnostic codes. The enum constant name is the code printed and served; renaming one is a
 * breaking change. Each code carries its default severity; strict mode raises some warnings to
 * errors.
 */
public enum DiagnosticCode {
  // Discovery and roots.
  ROOT_NOT_DIRECTORY(Severity.WARNING, "a configured skill root is not an existing directory"),
  ROOT_DUPLICATE(Severity.NOTICE, "a skill root was given twice (same real path)"),
  SKILL_MD_MISSING(Severity.ERROR, "a path given as a skill holds no SKILL.md"),
  SKILL_MD_LOWERCASE(Severity.WARNING, "the skill file is named skill.md instead of SKILL.md"),
  SKILL_MD_UNREADABLE(Severity.ERROR, "SKILL.md could not be read"),
  SKILL_MD_ENCODING(Severity.ERROR, "SKILL.md is not valid UTF-8"),
  SKILL_MD_TOO_LARGE(Severity.ERROR, "SKILL.md exceeds the size limit; it was not read"),
  DISCOVERY_DEPTH_LIMIT(Severity.NOTICE, "discovery stopped descending at the depth limit"),
  SKILL_DUPLICATE_PATH(Severity.NOTICE, "the same skill folder was reached twice"),
  DISCOVERY_SYMLINK_SKIPPED(
      Severity.NOTICE, "discovery did not follow a directory link that leaves its root"),

  // SKILL.md frontmatter.
  FRONTMATTER_MISSING(Severity.ERROR, "SKILL.md does not start with a --- frontmatter fence"),
  FRONTMATTER_UNTERMINATED(Severity.ERROR, "the frontmatter has no closing --- line"),
  FRONTMATTER_BOM(Severity.WARNING, "SKILL.md starts with a UTF-8 byte order mark"),
  FRONTMATTER_YAML(Severity.ERROR, "the frontmatter is not valid YAML"),
  FRONTMATTER_NOT_MAPPING(Severity.ERROR, "the frontmatter is not a YAML mapping"),
  FRONTMATTER_TOO_LARGE(Severity.ERROR, "the frontmatter exceeds the size limit"),
  FRONTMATTER_UNKNOWN_KEY(
      Severity.WARNING, "a top-level frontmatter key the format does not allow"),
  YAML_ALIAS_LIMIT(Severity.ERROR, "the YAML uses more aliases than allowed"),
  YAML_DEPTH_LIMIT(Severity.ERROR, "the YAML nests deeper than allowed"),
  YAML_DUPLICATE_KEY(Severity.ERROR, "a YAML mapping repeats a key"),
  YAML_KEY_NOT_STRING(Severity.ERROR, "a YAML mapping key is not a plain string"),
  NAME_MISSING(Severity.WARNING, "the frontmatter has no name; the directory name is used"),
  NAME_INVALID(Severity.ERROR, "the skill name breaks the naming rules"),
  NAME_MISMATCH(Severity.WARNING, "the skill name differs from its directory name"),
  DESCRIPTION_MISSING(Severity.ERROR, "the frontmatter has no non-empty description"),
  DESCRIPTION_TOO_LONG(Severity.ERROR, "the description is longer than 1024 characters"),
  COMPATIBILITY_TOO_LONG(Severity.ERROR, "compatibility is longer than 500 characters"),
  FIELD_TYPE_INVALID(Severity.ERROR, "a frontmatter field has the wrong type"),
  METADATA_NOT_MAPPING(Severity.ERROR, "metadata is not a mapping"),
  METADATA_LEGACY_FLAT(Severity.WARNING, "metadata uses the deprecated flat dcc-mcp.* keys"),
  ALLOWED_TOOLS_LIST(Severity.WARNING, "allowed-tools is a YAML list instead of a string"),

  // metadata.dcc-mcp.
  DCC_MCP_NOT_MAPPING(Severity.ERROR, "metadata.dcc-mcp is not a mapping"),
  DCC_MCP_UNKNOWN_KEY(Severity.NOTICE, "metadata.dcc-mcp has a key Skillport does not know"),
  DCC_MCP_VALUE_INVALID(Severity.WARNING, "a metadata.dcc-mcp value has the wrong type or form"),

  // Sibling files.
  SIBLING_MISSING(Severity.ERROR, "a sibling file named in metadata does not exist"),
  SIBLING_ESCAPES(Severity.ERROR, "a sibling path leaves the skill directory"),
  SIBLING_UNREADABLE(Severity.ERROR, "a sibling file could not be read"),
  SIBLING_YAML(Severity.ERROR, "a sibling file is not valid YAML"),
  SIBLING_SCHEMA(Severity.ERROR, "a sibling file does not have the required shape"),
  SIBLING_GLOB_EMPTY(Severity.WARNING, "a sibling glob matched no file"),
  SIBLING_TOO_LARGE(Severity.ERROR, "a sibling file exceeds the size or value-count limit"),

  // Tools and groups.
  TOOL_ENTRY_INVALID(Severity.WARNING, "a tool entry is invalid and was dropped"),
  TOOL_NAME_INVALID(Severity.WARNING, "a tool name is empty or unusable"),
  TOOL_DUPLICATE_NAME(Severity.WARNING, "two tool entries share a name; the later was dropped"),
  TOOL_EXECUTION_INVALID(Severity.WARNING, "a tool has an unknown execution mode"),
  TOOL_DEFERRED(Severity.WARNING, "a tool uses deferred:, which is replaced by execution: async"),
  TOOL_SCHEMA_INVALID(Severity.WARNING, "a tool schema is not a valid JSON Schema 2020-12"),
  TOOL_AFFINITY_INVALID(Severity.WARNING, "a tool has an unknown thread affinity"),
  TOOL_KEY_ALIAS(Severity.NOTICE, "a tool uses an accepted alias for a key"),
  TOOL_KEY_UNKNOWN(Severity.NOTICE, "a tool entry has a key the format does not define; ignored"),
  TOOL_GROUP_UNKNOWN(Severity.WARNING, "a tool names a group the skill does not declare"),
  TOOL_SOURCE_MISSING(Severity.WARNING, "a tool's source_file does not exist"),
  TOOL_UNBOUND(Severity.NOTICE, "a tool is bound to no code; calls return NO_HANDLER"),
  GROUP_INVALID(Severity.WARNING, "a group entry is invalid and was dropped"),
  GROUP_DUPLICATE(Severity.WARNING, "two groups share a name; the later was dropped"),
  GROUP_UNKNOWN_TOOL(Severity.WARNING, "a group lists a tool the skill does not declare"),
  GROUP_TOOL_CONFLICT(
      Severity.WARNING, "a tool is claimed by two groups; the tool's own group: field wins"),

  // Prompts, resources, workflows.
  PROMPT_INVALID(Severity.WARNING, "a prompt spec is invalid and was dropped"),
  PROMPT_DUPLICATE(Severity.WARNING, "two prompts share a name; the later was dropped"),
  PROMPT_PLACEHOLDER_UNKNOWN(Severity.WARNING, "a prompt template uses an undeclared argument"),
  RESOURCE_INVALID(Severity.WARNING, "a resource entry is invalid and was dropped"),
  RESOURCE_DUPLICATE(Severity.WARNING, "two resources share a URI; the later was dropped"),
  WORKFLOW_INVALID(Severity.WARNING, "a workflow spec is invalid and was dropped"),
  WORKFLOW_STEP_KIND_UNKNOWN(Severity.WARNING, "a workflow step has an unknown kind"),
  WORKFLOW_STEP_DUPLICATE_ID(Severity.WARNING, "two workflow steps share an id"),
  WORKFLOW_JSONPATH_INVALID(Severity.WARNING, "a workflow foreach uses an invalid JSONPath"),
  WORKFLOW_TEMPLATE_ROOT_UNKNOWN(Severity.WARNING, "a workflow template names an unknown root"),
  WORKFLOW_TOOL_UNKNOWN(
      Severity.WARNING, "a workflow step calls a tool the skill does not declare"),

  // External requirements and bridges.
  EXTERNAL_DEPS_INVALID(Severity.WARNING, "external-deps is not of the documented shape"),
  EXTERNAL_DEP_UNMET(Severity.NOTICE, "an external requirement is not met on this machine"),
  RUNTIMES_INVALID(Severity.WARNING, "runtimes is not of the documented shape"),
  MCP_BRIDGE_INVALID(Severity.ERROR, "the MCP bridge file is invalid"),
  MCP_BRIDGE_UNTRUSTED(Severity.ERROR, "an MCP bridge must declare trust: explicit"),

  // Across skills.
  DEPENDENCY_MISSING(Severity.WARNING, "a dependency is not available; the skill waits for it"),
  DEPENDENCY_CYCLE(Severity.ERROR, "skills depend on each other in a cycle"),
  SHADOWED(Severity.NOTICE, "another skill with the same name wins by scope or root order"),

  // The loader itself.
  LOADER_INTERNAL_ERROR(Severity.ERROR, "reading the skill failed unexpectedly; others still load"),

  // Host-adapter plugins.
  PLUGIN_INVALID(Severity.ERROR, "a plugin could not be loaded (manifest, classes or extensions)"),
  PLUGIN_START_FAILED(Severity.ERROR, "a plugin or its host adapter failed to start"),
  PLUGIN_BUNDLES_API(
      Severity.ERROR, "a plugin bundles its own copy of the platform API, Jackson or SLF4J");

  private final Severity defaultSeverity;
  private final String summary;

  DiagnosticCode(Severity defaultSeverity, String summary) {
    this.defaultSeverity = defaultSeverity;
    this.summary = summary;
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
   * Whether {@code --strict} turns this code's warnings into errors. Strict mode follows the
   * upstream loaders: unknown keys and per-entry problems fail the skill. A root that is not a
   * directory stays a warning: a misconfigured path is reported, never fatal.
   */
  public boolean raisedByStrict() {
    return defaultSeverity == Severity.WARNING
        && this != ROOT_NOT_DIRECTORY
        && this != NAME_MISSING
        && this != DEPENDENCY_MISSING
        && this != SIBLING_GLOB_EMPTY;
  }
}
