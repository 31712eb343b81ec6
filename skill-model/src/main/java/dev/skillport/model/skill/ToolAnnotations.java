package dev.skillport.model.skill;

/**
 * MCP tool annotations plus the {@code deferred_hint} extension. Every hint is nullable: absent
 * means "not declared", which is not the same as {@code false}.
 */
public record ToolAnnotations(
    String title,
    Boolean readOnlyHint,
    Boolean destructiveHint,
    Boolean idempotentHint,
    Boolean openWorldHint,
    Boolean deferredHint) {

  public static final ToolAnnotations NONE =
      new ToolAnnotations(null, null, null, null, null, null);

  public boolean isEmpty() {
    return equals(NONE);
  }
}
