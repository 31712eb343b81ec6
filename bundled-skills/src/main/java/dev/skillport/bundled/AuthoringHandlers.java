package dev.skillport.bundled;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The handlers of the bundled {@code skill-authoring} skill. They read and write only inside the
 * {@link AuthoringFolders} the server gives them, so the server registers them (they are not
 * service-loaded: without folders they would have nowhere to act).
 */
public final class AuthoringHandlers implements ToolHandlerProvider {
  /** Handler ids, as {@code tools.yaml} of {@code skill-authoring} names them. */
  static final String VALIDATE = "skill-authoring.validate_skill";

  static final String NEW_SKILL = "skill-authoring.new_skill";
  static final String EXPLAIN = "skill-authoring.explain_diagnostic";

  /** Every handler id of this class, for checks made without registering it. */
  public static final Set<String> IDS = Set.of(VALIDATE, NEW_SKILL, EXPLAIN);

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final AuthoringFolders folders;
  private final ToolHandlerProvider handlers;

  /** Handlers that act only inside {@code folders}. */
  public AuthoringHandlers(AuthoringFolders folders) {
    this.folders = Objects.requireNonNull(folders, "folders");
    this.handlers =
        ToolHandlers.builder()
            .handler(VALIDATE, this::validate)
            .handler(NEW_SKILL, this::newSkill)
            .handler(EXPLAIN, AuthoringHandlers::explain)
            .build();
  }

  @Override
  public Map<String, ToolHandler> handlers() {
    return handlers.handlers();
  }

  /** The refusal for a path outside the folders: the same whether or not the path exists. */
  private ToolResult outside(String what, String given) {
    return Results.error(
        "the "
            + what
            + " '"
            + given
            + "' is outside the folders the skill-authoring tools may use ("
            + folders.describe()
            + ")");
  }

  private ToolResult validate(ToolInvocation invocation) {
    Arguments args = Arguments.of(invocation);
    String given = args.string("path");
    Optional<Path> confined = folders.confine(given);
    if (confined.isEmpty()) {
      return outside("path", given);
    }
    Path path = confined.get();
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

  private ToolResult newSkill(ToolInvocation invocation) throws IOException {
    Arguments args = Arguments.of(invocation);
    String name = args.string("name");
    String given = args.string("dir");
    Optional<Path> confined = folders.confine(given);
    if (confined.isEmpty()) {
      return outside("folder", given);
    }
    Path dir = confined.get();
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
