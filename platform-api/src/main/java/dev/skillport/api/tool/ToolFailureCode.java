package dev.skillport.api.tool;

import dev.skillport.api.stability.API;

/**
 * Stable codes of tool failures: the {@code code} of an {@code isError} result's structured content
 * {@code {code, message, hint}}. The constant name is the code served; renaming one is a breaking
 * change. A protocol error (an unknown tool, malformed JSON-RPC) is not a tool failure and has no
 * code here.
 */
@API(status = API.Status.STABLE)
public enum ToolFailureCode {
  // Arguments and names.
  INVALID_ARGUMENTS(
      "the arguments are not what the tool accepts (its input schema or core-tool rules)"),
  ACTION_NOT_FOUND("no tool has the name a call_tool or workflow step gave"),
  SKILL_NOT_FOUND("no skill has the name given"),
  SKILL_NOT_LOADABLE("the skill cannot be loaded: it has errors or missing dependencies"),
  SKILL_NOT_AVAILABLE("the skill's tools cannot be called on this server (stateless call)"),
  SKILL_NOT_LOADED("the tool's skill is not loaded in this session"),
  SKILL_DENIED(
      "the operator's allow or deny list keeps this skill from being loaded or called (serve"
          + " --allow-skill, --deny-skill)"),
  PATH_NOT_ALLOWED(
      "an argument the tool declares as a path points outside the places it may; the hint names"
          + " the argument and the places"),
  GROUP_NOT_FOUND("the skill has no tool group of that name"),
  GROUP_AMBIGUOUS("several loaded skills have a tool group of that name; name the skill"),
  GROUP_NOT_ACTIVATED("the tool's group is not active"),
  CAPABILITY_REQUIRED("the tool needs a client capability the caller did not declare"),
  DYNAMIC_CODE_DISABLED(
      "register_tool was given code, which the server runs only when served with"
          + " --allow-dynamic-code"),

  // Handlers and results.
  NO_HANDLER("the tool is bound to no code, or its Java handler is not installed"),
  HANDLER_FAILED("the tool's Java handler threw"),
  OUTPUT_SCHEMA_MISMATCH("the result does not match the tool's output_schema"),
  CANCELLED("the call was cancelled or interrupted"),
  INPUT_REQUIRED("the tool asks the client for input before it can answer"),
  CLIENT_REQUEST_FAILED("a request the tool sent to the client (sampling, elicitation) failed"),

  // Scripts.
  NO_INTERPRETER("no interpreter is allowed for the script's file type"),
  INTERPRETER_DENIED("the operator denies scripts of this kind"),
  DCC_INTERPRETER_MISSING("the script needs its host program's Python, which is not configured"),
  SCRIPT_START_FAILED("the script's process could not be started"),
  SCRIPT_FAILED("the script reported a failure or exited non-zero"),
  SCRIPT_TIMEOUT("the script ran past its timeout; it and its processes were killed"),
  SCRIPT_CANCELLED("the script was cancelled or stopped; it and its processes were killed"),
  SCRIPT_ASKED_AGAIN("the script asked again what it had been answered"),
  TOO_MANY_QUESTIONS("the script kept asking the client after the round limit"),
  INPUT_TOO_LARGE("the client's answers to the script exceed the size limit"),

  // Host programs.
  HOST_ADAPTER_MISSING("no host adapter runs this skill on its host's main thread"),
  HOST_UNAVAILABLE("the host adapter is not running"),
  HOST_BUSY("the host program is busy with other calls"),
  HOST_CALL_FAILED("the call to the host program failed"),
  HOST_CALL_TIMEOUT("the host program did not answer in time"),
  HOST_CALL_CANCELLED("the call to the host program was cancelled"),
  HOST_CRASHED("the host program ended during the call"),

  // Bridged MCP servers.
  MCP_BRIDGE_UNTRUSTED("the operator has not trusted the skill's MCP bridge; the hint says how"),
  MCP_BRIDGE_CHANGED(
      "the skill's MCP bridge changed since the operator trusted it; it runs once trusted again"),
  MCP_BRIDGE_SECRET_INLINE(
      "the skill's mcp.yaml writes a secret value instead of a ${VAR} reference; it never runs"),
  MCP_BRIDGE_UNVERIFIABLE(
      "what the skill's MCP bridge runs cannot be read in full, so it cannot be trusted or run"),
  MCP_BRIDGE_START_FAILED(
      "the skill's bridged MCP server could not be started or did not complete its handshake"),
  BRIDGE_UNAVAILABLE("the skill's bridged MCP server is not running, or the tool is not bridged"),
  BRIDGE_INPUT_REQUIRED("the bridged MCP server asked for input during the call"),
  BRIDGE_TIMEOUT("the bridged MCP server did not answer in time; it was told to cancel the call"),
  BRIDGE_CALL_FAILED("the bridged MCP server answered the call with a JSON-RPC error"),
  BRIDGED_TOOL_ERROR("the bridged MCP server's tool reported an error"),

  // Jobs.
  IDEMPOTENCY_KEY_REUSED(
      "the call's idempotency key was first sent with another tool or other arguments"),
  JOB_NOT_FOUND("no job with that id is visible to the caller"),
  JOB_FAILED("the job a workflow step waited for failed"),
  JOB_CANCELLED("the job a workflow step waited for was cancelled"),
  JOB_INTERRUPTED("the job a workflow step waited for was interrupted by a restart"),
  STORE_UNAVAILABLE(
      "the job store cannot write (a full or failing disk): the call was not queued; it writes"
          + " again by itself once it can, and /readyz says so meanwhile"),

  // Workflows.
  WORKFLOW_INVALID("the workflow spec is not valid"),
  WORKFLOW_NOT_FOUND("no loaded skill has a workflow of that name"),
  WORKFLOW_AMBIGUOUS("several skills have a workflow of that name; name the skill"),
  RUN_NOT_FOUND("no workflow run with that id"),
  NO_PENDING_APPROVAL("the workflow run is not waiting for that approval"),
  RUN_NOT_RESUMABLE("the workflow run is in progress, cancelled or completed: it cannot resume"),
  SPEC_CHANGED("the workflow run's stored spec is not the one the caller expected");

  private final String summary;

  ToolFailureCode(String summary) {
    this.summary = summary;
  }

  /** What the code means, in one line (the README's table shows it). */
  public String summary() {
    return summary;
  }
}
