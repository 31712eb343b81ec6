package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.PathPlace;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks the arguments a tool declares as paths before the tool runs. A value is resolved the way
 * the tool will see it: against the skill folder (a script's working directory), with every link of
 * the part that exists followed, and {@code ..} of the part that does not yet exist taken
 * literally. It must then lie in one of the declared places. Refused outright, whatever the places:
 * an empty value, one longer than {@value #MAX_CHARS} characters or with a name longer than {@value
 * #MAX_NAME_BYTES} bytes, one holding NUL, one starting with {@code ~} (never expanded: a script
 * would read it as a folder named {@code ~}, a shell as the home folder), and one that goes through
 * a link pointing nowhere. The value itself is passed on unchanged.
 */
final class PathGuard {
  /** The longest value checked, in characters (Linux's {@code PATH_MAX}). */
  static final int MAX_CHARS = 4096;

  /** The longest name of one path element, in UTF-8 bytes (Linux's {@code NAME_MAX}). */
  static final int MAX_NAME_BYTES = 255;

  private final PathRules rules;

  PathGuard(PathRules rules) {
    this.rules = Objects.requireNonNull(rules, "rules");
  }

  /** The refusal of the first path argument that points where it may not; empty when all may. */
  Optional<CallOutcome.Refused> check(
      Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx, CallMeta meta) {
    if (tool.paths().isEmpty() || args == null || !args.isObject()) {
      return Optional.empty();
    }
    Path base = skill.location().directory().toAbsolutePath();
    Places places = new Places(base, ctx, meta);
    for (PathArgument declared : tool.paths()) {
      JsonNode value = args.get(declared.argument());
      if (value == null || value.isNull()) {
        continue;
      }
      List<JsonNode> values = new ArrayList<>();
      if (value.isArray()) {
        value.forEach(values::add);
      } else {
        values.add(value);
      }
      for (JsonNode one : values) {
        if (!one.isTextual()) {
          return refuse(declared, "is not a path: give a string (or a list of strings)", places);
        }
        Resolved resolved = resolve(one.asText(), base);
        if (resolved.problem() != null) {
          return refuse(declared, resolved.problem(), places);
        }
        if (!places.admit(declared, resolved.path())) {
          return refuse(declared, "points outside the places this tool may use", places);
        }
      }
    }
    return Optional.empty();
  }

  private Optional<CallOutcome.Refused> refuse(PathArgument declared, String why, Places places) {
    return Optional.of(
        CallOutcome.refused(
            ToolFailureCode.PATH_NOT_ALLOWED,
            "argument '" + declared.argument() + "' " + why,
            "'"
                + declared.argument()
                + "' may point inside "
                + places.describe(declared)
                + "; a relative path is taken from the skill folder, links are followed, and ~"
                + " is not expanded"));
  }

  /** A value resolved to a real path, or the reason it cannot be. */
  record Resolved(Path path, String problem) {
    static Resolved bad(String problem) {
      return new Resolved(null, problem);
    }
  }

  /** Where {@code value} points, read from {@code base}: links followed, as the tool would. */
  static Resolved resolve(String value, Path base) {
    if (value.isEmpty()) {
      return Resolved.bad("is empty");
    }
    if (value.length() > MAX_CHARS) {
      return Resolved.bad("is longer than " + MAX_CHARS + " characters");
    }
    if (value.indexOf('\0') >= 0) {
      return Resolved.bad("holds a NUL character");
    }
    if (value.startsWith("~")) {
      return Resolved.bad("starts with '~', which is not expanded: give the full path");
    }
    Path path;
    try {
      path = base.resolve(base.getFileSystem().getPath(value));
    } catch (InvalidPathException e) {
      return Resolved.bad("is not a path this server can read");
    }
    for (Path name : path) {
      if (name.toString().getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        return Resolved.bad("has a name longer than " + MAX_NAME_BYTES + " bytes");
      }
    }
    // The longest part that exists (a link counts, even one pointing nowhere) is resolved by the
    // file system; what follows does not exist yet, so its names are taken as written.
    Path existing = path;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return Resolved.bad("is not a path this server can read");
    }
    Path real;
    try {
      real = existing.toRealPath();
    } catch (IOException e) {
      return Resolved.bad("goes through a link that points nowhere");
    }
    int known = existing.getNameCount();
    Path rest = known == path.getNameCount() ? null : path.subpath(known, path.getNameCount());
    return new Resolved(rest == null ? real : real.resolve(rest).normalize(), null);
  }

  /** The folders of one call's places, each found when first needed. */
  private final class Places {
    private final Path base;
    private final ToolContext ctx;
    private final CallMeta meta;
    private Path skillFolder;
    private List<Path> roots;

    Places(Path base, ToolContext ctx, CallMeta meta) {
      this.base = base;
      this.ctx = ctx;
      this.meta = meta;
    }

    boolean admit(PathArgument declared, Path real) {
      for (PathPlace place : declared.inside()) {
        for (Path folder : folders(place)) {
          if (real.startsWith(folder)) {
            return true;
          }
        }
      }
      return false;
    }

    String describe(PathArgument declared) {
      List<String> out = new ArrayList<>();
      for (PathPlace place : declared.inside()) {
        out.add(describe(place));
      }
      return String.join(", or ", out);
    }

    private String describe(PathPlace place) {
      return switch (place.kind()) {
        case SKILL -> "the skill folder " + skillFolder();
        case ROOTS ->
            meta.stateless()
                ? "the client's roots (a 2026-07-28 call has none)"
                : "the client's roots";
        case WORKDIR ->
            rules.workdir() == null
                ? "the server's working directory (none is configured)"
                : "the server's working directory " + rules.workdir();
        case ALLOWED -> {
          List<Path> folders = folders(place);
          String which =
              place.name() == null
                  ? "the folders the operator allows"
                  : "the operator's folder '" + place.name() + "'";
          yield folders.isEmpty()
              ? which + " (none is configured: serve --allow-path)"
              : which + " " + folders;
        }
      };
    }

    private List<Path> folders(PathPlace place) {
      return switch (place.kind()) {
        case SKILL -> List.of(skillFolder());
        case ROOTS -> roots();
        case WORKDIR -> rules.workdir() == null ? List.of() : List.of(rules.workdir());
        case ALLOWED ->
            rules.allowed().stream()
                .filter(a -> place.name() == null || place.name().equals(a.name()))
                .map(PathRules.Allowed::folder)
                .toList();
      };
    }

    private Path skillFolder() {
      if (skillFolder == null) {
        try {
          skillFolder = base.toRealPath();
        } catch (IOException e) {
          skillFolder = base.normalize();
        }
      }
      return skillFolder;
    }

    /** The client's roots as real folders; none for a stateless call or a client without roots. */
    private List<Path> roots() {
      if (roots != null) {
        return roots;
      }
      roots = new ArrayList<>();
      if (meta.stateless() || !ctx.clientSupports("roots")) {
        return roots;
      }
      try {
        JsonNode listed = ctx.request("roots/list", JsonNodeFactory.instance.objectNode());
        for (JsonNode root : listed.path("roots")) {
          folder(root.path("uri").asText("")).ifPresent(roots::add);
        }
      } catch (ClientRequestException e) {
        // A client that cannot list its roots shares none.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return roots;
    }
  }

  /** The real folder a {@code file:} root URI names; empty for any other URI. */
  static Optional<Path> folder(String uri) {
    try {
      URI parsed = URI.create(uri);
      if (!"file".equalsIgnoreCase(parsed.getScheme())) {
        return Optional.empty();
      }
      Path path = Path.of(parsed);
      Resolved resolved = resolve(path.toString(), path.getRoot());
      return Optional.ofNullable(resolved.path());
    } catch (IllegalArgumentException | FileSystemNotFoundException e) {
      return Optional.empty();
    }
  }
}
