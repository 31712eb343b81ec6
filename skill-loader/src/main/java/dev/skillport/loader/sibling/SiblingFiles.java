package dev.skillport.loader.sibling;

import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.ExternalDependency;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.ResourceSpec;
import dev.skillport.model.skill.RuntimeSpec;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.skill.WorkflowSpec;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Entry point for reading all of a skill's sibling files. */
public final class SiblingFiles {
  private SiblingFiles() {}

  /**
   * Reads every sibling file the skill's extensions point at, binds its tools to code, and reports
   * problems to {@code ctx.diagnostics()}. Never throws for bad input.
   */
  public static SkillContents read(SiblingContext ctx) {
    return read(ctx, HostEnvironment.system());
  }

  /** {@link #read(SiblingContext)} with the machine's environment given (for tests). */
  static SkillContents read(SiblingContext ctx, HostEnvironment host) {
    SiblingPaths paths = new SiblingPaths(ctx);
    SiblingYaml yaml = new SiblingYaml(ctx, paths);
    DccExtensions.Siblings files = ctx.extensions().siblings();

    ToolsFileReader toolsReader = new ToolsFileReader(ctx, yaml);
    ToolBinder binder = new ToolBinder(ctx, paths);
    List<DeclaredTool> declared;
    List<DeclaredGroup> groups;
    if (files.tools() == null) {
      declared = binder.scriptOnly();
      groups = List.of();
    } else {
      ToolsFileReader.Result result =
          paths
              .resolveFromManifest("tools", files.tools(), "tools file")
              .map(toolsReader::read)
              .orElse(new ToolsFileReader.Result(List.of(), List.of()));
      declared = binder.bind(result.tools());
      groups = result.groups();
    }
    if (files.groups() != null) {
      groups =
          paths
              .resolveFromManifest("groups", files.groups(), "groups file")
              .map(toolsReader::readGroupsFile)
              .orElse(List.of());
    }
    ToolGroups.Result grouped = new ToolGroups(ctx).assemble(declared, groups);
    List<ToolSpec> tools = grouped.tools().stream().map(DeclaredTool::spec).toList();
    Set<String> toolNames = tools.stream().map(ToolSpec::name).collect(Collectors.toSet());

    WorkflowsReader workflowsReader = new WorkflowsReader(ctx, paths, yaml, toolNames);
    List<WorkflowSpec> workflows = workflowsReader.read(files.workflows());
    List<PromptSpec> prompts =
        files.prompts() == null
            ? List.of()
            : new PromptsReader(ctx, paths, yaml, workflowsReader).read(files.prompts());
    List<ResourceSpec> resources =
        files.resources() == null
            ? List.of()
            : new ResourcesReader(ctx, paths, yaml).read(files.resources());
    List<ExternalDependency> deps =
        new ExternalDepsReader(ctx, yaml, host).read(files.externalDeps());
    List<RuntimeSpec> runtimes = new RuntimesReader(ctx, yaml).read(files.runtimes());
    McpBridgeSpec bridge =
        files.mcp() == null ? null : new McpBridgeReader(ctx, paths, yaml).read(files.mcp());
    return new SkillContents(
        tools, grouped.groups(), prompts, resources, workflows, deps, runtimes, bridge);
  }

  /** The description a tool gets when its author left it empty. */
  static String defaultDescription(SiblingContext ctx) {
    return "[" + ctx.skillName() + "] " + ctx.skillDescription();
  }
}
