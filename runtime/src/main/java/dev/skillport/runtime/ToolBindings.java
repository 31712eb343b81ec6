package dev.skillport.runtime;

import dev.skillport.api.tool.ToolHandler;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Java handlers of one catalog generation's tools, bound once when the generation is first
 * used: a call goes straight to its handler, and a handler id nobody registered is a diagnostic
 * ({@link DiagnosticCode#HANDLER_NOT_REGISTERED}) rather than a surprise at call time.
 */
public final class ToolBindings {
  private final long generation;
  private final Map<ToolSpec, ToolHandler> handlers;
  private final List<Diagnostic> diagnostics;

  private ToolBindings(
      long generation, Map<ToolSpec, ToolHandler> handlers, List<Diagnostic> diagnostics) {
    this.generation = generation;
    this.handlers = handlers;
    this.diagnostics = List.copyOf(diagnostics);
  }

  /** Binds every handler-bound tool of {@code catalog} to its handler in {@code registry}. */
  public static ToolBindings bind(Catalog catalog, HandlerRegistry registry) {
    Map<ToolSpec, ToolHandler> bound = new IdentityHashMap<>();
    List<Diagnostic> missing = new ArrayList<>();
    for (Skill skill : catalog.skills()) {
      // A skipped or shadowed skill is never called (a missing handler skips its skill already).
      if (skill.state() == SkillState.SKIPPED || skill.state() == SkillState.SHADOWED) {
        continue;
      }
      for (ToolSpec tool : skill.tools()) {
        if (tool.binding() instanceof ToolBinding.Handler h) {
          Optional<ToolHandler> handler = registry.find(h.handlerId());
          if (handler.isPresent()) {
            bound.put(tool, handler.get());
          } else {
            missing.add(
                h.notRegistered(
                    skill, tool.name(), DiagnosticCode.HANDLER_NOT_REGISTERED.defaultSeverity()));
          }
        }
      }
    }
    return new ToolBindings(catalog.generation(), Collections.unmodifiableMap(bound), missing);
  }

  public long generation() {
    return generation;
  }

  /** The handler bound to {@code tool}, a tool of this generation; empty when none is. */
  public Optional<ToolHandler> handler(ToolSpec tool) {
    return Optional.ofNullable(handlers.get(tool));
  }

  /** The handler ids of this generation that no one registered. */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }
}
