package dev.skillport.server.rest;

import dev.skillport.api.tool.ToolFailureCode;
import java.util.EnumMap;
import java.util.Map;

/**
 * The HTTP status of a failed call, from its code: the caller's mistake (400), a refusal by the
 * operator's rules (403), something named that is not there for this caller (404), a state that
 * must change first (409), the service unable now (503) or too slow (504), and the tool having run
 * and failed (502, as for a gateway whose upstream failed). A code no table names, such as one a
 * script's own result envelope gave, is a failure of the tool: 502.
 */
final class RestStatus {
  private static final Map<ToolFailureCode, Integer> STATUS = new EnumMap<>(ToolFailureCode.class);

  static {
    for (ToolFailureCode code : ToolFailureCode.values()) {
      STATUS.put(code, 502);
    }
    put(400, "INVALID_ARGUMENTS", "INPUT_TOO_LARGE", "WORKFLOW_INVALID");
    put(
        403,
        "SKILL_DENIED",
        "PATH_NOT_ALLOWED",
        "INTERPRETER_DENIED",
        "DYNAMIC_CODE_DISABLED",
        "MCP_BRIDGE_UNTRUSTED",
        "MCP_BRIDGE_CHANGED",
        "MCP_BRIDGE_SECRET_INLINE",
        "MCP_BRIDGE_UNVERIFIABLE");
    put(
        404,
        "ACTION_NOT_FOUND",
        "SKILL_NOT_FOUND",
        "GROUP_NOT_FOUND",
        "JOB_NOT_FOUND",
        "RUN_NOT_FOUND",
        "WORKFLOW_NOT_FOUND");
    put(
        409,
        "SKILL_NOT_LOADABLE",
        "SKILL_NOT_AVAILABLE",
        "SKILL_NOT_LOADED",
        "GROUP_AMBIGUOUS",
        "GROUP_NOT_ACTIVATED",
        "CAPABILITY_REQUIRED",
        "INPUT_REQUIRED",
        "WORKFLOW_AMBIGUOUS",
        "NO_PENDING_APPROVAL",
        "RUN_NOT_RESUMABLE",
        "SPEC_CHANGED");
    put(
        503,
        "STORE_UNAVAILABLE",
        "HOST_ADAPTER_MISSING",
        "HOST_UNAVAILABLE",
        "HOST_BUSY",
        "BRIDGE_UNAVAILABLE",
        "NO_INTERPRETER",
        "DCC_INTERPRETER_MISSING",
        "NO_HANDLER");
    put(504, "SCRIPT_TIMEOUT", "HOST_CALL_TIMEOUT", "BRIDGE_TIMEOUT");
  }

  private RestStatus() {}

  private static void put(int status, String... codes) {
    for (String code : codes) {
      STATUS.put(ToolFailureCode.valueOf(code), status);
    }
  }

  /** The status a failure with {@code code} is answered with. */
  static int of(String code) {
    for (ToolFailureCode known : ToolFailureCode.values()) {
      if (known.name().equals(code)) {
        return STATUS.get(known);
      }
    }
    return 502;
  }
}
