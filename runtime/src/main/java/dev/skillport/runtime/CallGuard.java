package dev.skillport.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.secrets.Redactor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's guardrails around tool calls: skills and tools that must not run ({@link
 * SkillAccess}), the places path arguments may point into ({@link PathRules}, checked against each
 * tool's {@code paths:} declaration), and an audit trail of every call (JSON lines: time, session,
 * tool, duration, outcome and the argument names; values are never written, so secrets passed as
 * arguments cannot leak into it), written to a file, to a fleet's shared {@link AuditTrail}, or
 * both.
 */
public final class CallGuard implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CallGuard.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** No denied skill, no operator folder for paths, no audit trail. */
  public static final CallGuard NONE =
      new CallGuard(
          SkillAccess.OPEN, PathRules.NONE, null, null, new Redactor(), Clock.systemUTC());

  private final SkillAccess access;
  private final PathGuard paths;
  private final BufferedWriter audit;
  private final AuditTrail trail;
  private final Redactor redactor;
  private final Clock clock;

  private CallGuard(
      SkillAccess access,
      PathRules paths,
      BufferedWriter audit,
      AuditTrail trail,
      Redactor redactor,
      Clock clock) {
    this.access = access;
    this.paths = new PathGuard(paths);
    this.audit = audit;
    this.trail = trail;
    this.redactor = redactor;
    this.clock = clock;
  }

  /**
   * A guard denying {@code deniedSkills} and appending its audit trail to {@code auditFile} (none
   * when null).
   */
  public static CallGuard of(Set<String> deniedSkills, Path auditFile) throws IOException {
    return of(
        SkillAccess.ofSkills(List.of(), List.copyOf(deniedSkills)), PathRules.NONE, auditFile);
  }

  /**
   * A guard with the operator's {@code access} lists and {@code paths}, appending its audit trail
   * to {@code auditFile} (none when null).
   */
  public static CallGuard of(SkillAccess access, PathRules paths, Path auditFile)
      throws IOException {
    return of(access, paths, auditFile, new Redactor());
  }

  /**
   * Like {@link #of(SkillAccess, PathRules, Path)}, masking the audit trail's lines with {@code
   * redactor}.
   */
  public static CallGuard of(SkillAccess access, PathRules paths, Path auditFile, Redactor redactor)
      throws IOException {
    return of(access, paths, auditFile, null, redactor);
  }

  /**
   * Like {@link #of(SkillAccess, PathRules, Path, Redactor)}, appending the audit lines to a
   * fleet's shared {@code trail} too (none when null).
   */
  public static CallGuard of(
      SkillAccess access, PathRules paths, Path auditFile, AuditTrail trail, Redactor redactor)
      throws IOException {
    Objects.requireNonNull(redactor, "redactor");
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(paths, "paths");
    BufferedWriter writer = null;
    if (auditFile != null) {
      Path parent = auditFile.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      writer =
          Files.newBufferedWriter(
              auditFile,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE);
    }
    return new CallGuard(access, paths, writer, trail, redactor, Clock.systemUTC());
  }

  /** The fleet's shared audit trail this guard appends to; empty when it writes none. */
  public Optional<AuditTrail> trail() {
    return Optional.ofNullable(trail);
  }

  /** The operator's allow and deny lists, which the catalog applies too. */
  public SkillAccess access() {
    return access;
  }

  /** The refusal for a denied skill; empty when it may run. */
  public Optional<CallOutcome.Refused> refusal(Skill skill) {
    return access.skillDenial(skill.name()).map(CallGuard::denied);
  }

  /** The refusal for a denied skill or tool; empty when the tool may run. */
  public Optional<CallOutcome.Refused> refusal(Skill skill, ToolSpec tool) {
    return refusal(skill)
        .or(() -> access.toolDenial(skill.name(), tool.name()).map(CallGuard::denied));
  }

  private static CallOutcome.Refused denied(String why) {
    return CallOutcome.refused(ToolFailureCode.SKILL_DENIED, why, "ask the operator");
  }

  /**
   * The refusal for a call whose declared path arguments point where they may not ({@code
   * PATH_NOT_ALLOWED}, the hint naming the argument and its places); empty when they all may. The
   * client's roots are asked for only when a declaration names them and nothing else admits.
   */
  public Optional<CallOutcome.Refused> pathRefusal(
      Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx, CallMeta meta) {
    return paths.check(skill, tool, args, ctx, meta);
  }

  /**
   * Appends one call to the audit trail; {@code outcome} is {@code ok}, a code, or a job state. A
   * stateless call has no session; its caller (when authenticated) and its W3C trace context (when
   * the request carried one) are written instead, so the line can be joined with the client's
   * traces.
   */
  public void record(CallMeta meta, String tool, JsonNode args, Duration took, String outcome) {
    if (audit == null && trail == null) {
      return;
    }
    ObjectNode line = JSON.createObjectNode();
    line.put("time", clock.instant().toString());
    line.put("session", meta.sessionId());
    if (meta.principal() != null) {
      line.put("caller", meta.principal());
    }
    if (meta.traceparent() != null) {
      line.put("traceparent", meta.traceparent());
    }
    if (meta.via() != null) {
      line.put("via", meta.via());
    }
    line.put("tool", tool);
    line.put("duration_ms", took.toMillis());
    line.put("outcome", outcome);
    ArrayNode names = line.putArray("arguments");
    argumentNames(args).forEach(names::add);
    JsonNode masked = redactor.wire(line);
    if (trail != null && masked instanceof ObjectNode shared) {
      ObjectNode out = shared.deepCopy();
      if (meta.sessionId() != null) {
        out.put("session", AuditTrail.sessionLabel(meta.sessionId()));
      }
      trail.append(out);
    }
    if (audit == null) {
      return;
    }
    try {
      String text = JSON.writeValueAsString(masked);
      synchronized (audit) {
        audit.write(text);
        audit.newLine();
        audit.flush();
      }
    } catch (JsonProcessingException e) {
      LOG.warn("audit line not written: {}", e.getMessage());
    } catch (IOException e) {
      LOG.warn("audit trail not writable: {}", e.getMessage());
    }
  }

  /** The argument names of a call as the audit trail keeps them (values are never kept). */
  public static List<String> argumentNames(JsonNode args) {
    if (args == null || !args.isObject()) {
      return List.of();
    }
    List<String> names = new ArrayList<>(args.size());
    for (Iterator<String> it = args.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      // A name is capped too: a value pasted as a key must not land in the trail whole.
      names.add(name.length() > 64 ? "<long name>" : name);
    }
    return names;
  }

  @Override
  public void close() {
    if (audit != null) {
      synchronized (audit) {
        try {
          audit.close();
        } catch (IOException e) {
          LOG.debug("audit trail close failed", e);
        }
      }
    }
  }
}
