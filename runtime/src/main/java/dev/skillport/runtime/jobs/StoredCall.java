package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A queued job's call as the store keeps it: what any instance on the store needs to run it again
 * through the tool-call path. The caller is the job's {@link JobRecord#owner()}.
 *
 * @param skill the called skill's name
 * @param tool the called tool's name
 * @param arguments the call's arguments, already checked against the tool's input schema
 * @param skillDigest {@code sha256:<hex>} of the skill's files when the call was accepted: only an
 *     instance serving the same skill runs it
 * @param host the host adapter the skill needs ({@code dcc: blender}), or {@code null}
 * @param idempotent whether the tool declares itself idempotent: its job is queued again, rather
 *     than interrupted, when the instance running it stops
 * @param traceparent the call's W3C trace context, or {@code null}
 * @param capabilities what the job may ask its client ({@code elicitation}...): empty when it may
 *     not ask
 */
public record StoredCall(
    String skill,
    String tool,
    JsonNode arguments,
    String skillDigest,
    String host,
    boolean idempotent,
    String traceparent,
    List<String> capabilities) {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The client capabilities a job's questions may need. */
  public static final List<String> CLIENT_CAPABILITIES =
      List.of("elicitation", "sampling", "roots");

  public StoredCall {
    Objects.requireNonNull(skill, "skill");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(skillDigest, "skillDigest");
    arguments = arguments == null ? NODES.objectNode() : arguments.deepCopy();
    capabilities = List.copyOf(capabilities);
  }

  /** The key an instance offers for the skills it can run: {@code name@digest}. */
  public String skillKey() {
    return key(skill, skillDigest);
  }

  /** {@code name@digest}. */
  public static String key(String skill, String digest) {
    return skill + "@" + digest;
  }

  /** The capabilities of {@code client} among {@link #CLIENT_CAPABILITIES}. */
  public static List<String> capabilitiesOf(JobScheduler.ClientLink client) {
    return client == null
        ? List.of()
        : CLIENT_CAPABILITIES.stream().filter(client::supports).toList();
  }

  /** What the job may ask its client, as a link; null when it may ask nothing. */
  JobScheduler.ClientLink client() {
    return capabilities.isEmpty() ? null : capabilities::contains;
  }

  /** The stored form. */
  public ObjectNode toJson() {
    ObjectNode o = NODES.objectNode().put("skill", skill).put("tool", tool);
    o.set("arguments", arguments.deepCopy());
    o.put("skill_digest", skillDigest).put("host", host).put("idempotent", idempotent);
    o.put("traceparent", traceparent);
    capabilities.forEach(o.putArray("capabilities")::add);
    return o;
  }

  /** Reads {@link #toJson}; throws {@link IllegalArgumentException} for a damaged one. */
  public static StoredCall fromJson(JsonNode o) {
    if (o == null || !o.isObject() || !o.path("skill").isTextual()) {
      throw new IllegalArgumentException("damaged stored call: " + o);
    }
    List<String> caps = new ArrayList<>();
    o.path("capabilities").forEach(c -> caps.add(c.asText()));
    return new StoredCall(
        o.path("skill").asText(),
        o.path("tool").asText(),
        o.get("arguments"),
        o.path("skill_digest").asText(),
        o.hasNonNull("host") ? o.get("host").asText() : null,
        o.path("idempotent").asBoolean(false),
        o.hasNonNull("traceparent") ? o.get("traceparent").asText() : null,
        caps);
  }
}
