package dev.skillport.bundled;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.diagnostic.Diagnostic;
import dev.skillport.api.diagnostic.DiagnosticCode;
import dev.skillport.api.diagnostic.Severity;
import dev.skillport.api.skill.Scope;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.sdk.Arguments;
import dev.skillport.sdk.Results;
import dev.skillport.sdk.ToolHandlers;
import dev.skillport.sdk.scaffold.SkillScaffold;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The handlers of the bundled {@code skill-authoring} skill, found through the service loader. */
public final class AuthoringHandlers implements ToolHandlerProvider {
  /** Handler ids, as {@code tools.yaml} of {@code skill-authoring} names them. */
  static final String VALIDATE = "skill-authoring.validate_skill";

  static final String NEW_SKILL = "skill-authoring.new_skill";
  static final String EXPLAIN = "skill-authoring.explain_diagnostic";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final ToolHandlerProvider handlers =
      ToolHandlers.builder()
          .handler(VALIDATE, AuthoringHandlers::validate)
          .handler(NEW_SKILL, AuthoringHandlers::newSkill)
          .handler(EXPLAIN, AuthoringHandlers::explain)
          .build();

  @Override
  public Map<String, ToolHandler> handlers() {
    return handlers.handlers();
  }

  private static ToolResult validate(ToolInvocation invocation) {
    Arguments args = Arguments.of(invocation);
    Path path = Path.of(args.string("path")).toAbsolutePath().normalize();
    boolean strict = args.bool("strict", false);
    if (Files.isRegularFile(path)) {
      path = path.getParent();
    }
    if (!Files.isDirectory(path)) {
      return Results.error("no skill folder at " + path);
    }
    LoadResult result =
        new SkillLoader(LoaderOptions.DEFAULTS.withStrict(strict)).loadSkill(path, Scope.REPO);
    ObjectNode out = JSON.objectNode();
    long errors = result.diagnostics().stream().filter(Diagnostic::isError).count();
    out.put("success", errors == 0 && !result.skills().isEmpty());
    out.put("path", path.toString());
    out.put("strict", strict);
    Optional<Skill> skill = result.skills().stream().findFirst();
    skill.ifPresent(
        s -> {
          out.put("skill", s.name());
          out.put("state", s.state().name().toLowerCase(Locale.ROOT));
          out.put("tools", s.tools().size());
        });
    out.put("errors", errors);
    out.put(
        "warnings",
        result.diagnostics().stream().filter(d -> d.severity() == Severity.WARNING).count());
    ArrayNode list = out.putArray("diagnostics");
    for (Diagnostic d : result.diagnostics()) {
      DiagnosticJson.write(d, list.addObject());
    }
    return Results.structured(out);
  }

  private static ToolResult newSkill(ToolInvocation invocation) throws IOException {
    Arguments args = Arguments.of(invocation);
    String name = args.string("name");
    Path dir = Path.of(args.string("dir")).toAbsolutePath().normalize();
    if (!SkillScaffold.isValidName(name)) {
      return Results.error("invalid skill name '" + name + "': use " + SkillScaffold.nameRule());
    }
    Path created;
    try {
      created = SkillScaffold.create(dir, name);
    } catch (FileAlreadyExistsException e) {
      return Results.error(dir.resolve(name) + " exists already; choose another name or folder");
    }
    ObjectNode out = JSON.objectNode();
    out.put("success", true);
    out.put("path", created.toString());
    ArrayNode files = out.putArray("files");
    SkillScaffold.FILES.forEach(files::add);
    return Results.structured(out);
  }

  private static ToolResult explain(ToolInvocation invocation) {
    String asked = Arguments.of(invocation).string("code").strip();
    Optional<DiagnosticCode> code =
        Arrays.stream(DiagnosticCode.values())
            .filter(c -> c.name().equalsIgnoreCase(asked))
            .findFirst();
    if (code.isEmpty()) {
      return Results.error(
          "unknown diagnostic code '"
              + asked
              + "'; codes look like NAME_INVALID or SKILL_MD_MISSING");
    }
    DiagnosticCode c = code.get();
    Severity strict = c.raisedByStrict() ? Severity.ERROR : c.defaultSeverity();
    ObjectNode out = JSON.objectNode();
    out.put("success", true);
    out.put("code", c.name());
    out.put("summary", c.summary());
    out.put("hint", c.hint());
    out.put("severity", c.defaultSeverity().name().toLowerCase(Locale.ROOT));
    out.put("strict_severity", strict.name().toLowerCase(Locale.ROOT));
    return Results.structured(out);
  }
}
