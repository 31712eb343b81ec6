package dev.skillport.model.skill;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A discovered skill with everything its package declares, as the loader resolved it.
 *
 * @param manifest what SKILL.md says
 * @param location where it was found
 * @param state the loader's verdict
 * @param mcpBridge the bridged MCP server, or {@code null}
 * @param shadowedBy the path of the winning skill when {@code state} is SHADOWED, else null
 */
public record Skill(
    SkillManifest manifest,
    SkillLocation location,
    SkillState state,
    List<ToolSpec> tools,
    List<GroupSpec> groups,
    List<PromptSpec> prompts,
    List<ResourceSpec> resources,
    List<WorkflowSpec> workflows,
    List<ExternalDependency> externalDeps,
    List<RuntimeSpec> runtimes,
    McpBridgeSpec mcpBridge,
    String shadowedBy) {

  public Skill {
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(state, "state");
    tools = Immutables.list(tools);
    groups = Immutables.list(groups);
    prompts = Immutables.list(prompts);
    resources = Immutables.list(resources);
    workflows = Immutables.list(workflows);
    externalDeps = Immutables.list(externalDeps);
    runtimes = Immutables.list(runtimes);
    if ((state == SkillState.SHADOWED) != (shadowedBy != null)) {
      throw new IllegalArgumentException("shadowedBy is set exactly when state is SHADOWED");
    }
  }

  public String name() {
    return manifest.name();
  }

  public Scope scope() {
    return location.scope();
  }

  public Optional<ToolSpec> tool(String toolName) {
    return tools.stream().filter(t -> t.name().equals(toolName)).findFirst();
  }

  public Optional<McpBridgeSpec> bridge() {
    return Optional.ofNullable(mcpBridge);
  }

  /** This skill with another list of tools (a bridged server's, mounted beside its own). */
  public Skill withTools(List<ToolSpec> newTools) {
    return new Skill(
        manifest,
        location,
        state,
        newTools,
        groups,
        prompts,
        resources,
        workflows,
        externalDeps,
        runtimes,
        mcpBridge,
        shadowedBy);
  }

  /** This skill with another state; {@code shadowedBy} must be given exactly for SHADOWED. */
  public Skill withState(SkillState newState, String newShadowedBy) {
    return new Skill(
        manifest,
        location,
        newState,
        tools,
        groups,
        prompts,
        resources,
        workflows,
        externalDeps,
        runtimes,
        mcpBridge,
        newShadowedBy);
  }
}
