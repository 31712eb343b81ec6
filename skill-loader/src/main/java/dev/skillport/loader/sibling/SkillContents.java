package dev.skillport.loader.sibling;

import dev.skillport.model.skill.ExternalDependency;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.ResourceSpec;
import dev.skillport.model.skill.RuntimeSpec;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.skill.WorkflowSpec;
import java.util.List;

/**
 * Everything read from a skill's sibling files.
 *
 * @param mcpBridge the bridged MCP server, or {@code null}
 */
public record SkillContents(
    List<ToolSpec> tools,
    List<GroupSpec> groups,
    List<PromptSpec> prompts,
    List<ResourceSpec> resources,
    List<WorkflowSpec> workflows,
    List<ExternalDependency> externalDeps,
    List<RuntimeSpec> runtimes,
    McpBridgeSpec mcpBridge) {
  public static final SkillContents EMPTY =
      new SkillContents(
          List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), null);

  public SkillContents {
    tools = List.copyOf(tools);
    groups = List.copyOf(groups);
    prompts = List.copyOf(prompts);
    resources = List.copyOf(resources);
    workflows = List.copyOf(workflows);
    externalDeps = List.copyOf(externalDeps);
    runtimes = List.copyOf(runtimes);
  }
}
