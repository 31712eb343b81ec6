package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What an instance tells the registry about itself.
 *
 * @param id unique on the registry; letters, digits, '.', '_' and '-' (a qualified tool name puts
 *     it before a '/')
 * @param url the instance's MCP endpoint ({@code http://127.0.0.1:PORT/mcp})
 * @param dcc the host product it serves ({@code python} without an adapter)
 * @param dccVersion the host's version, or {@code null} when unknown
 * @param adapters the ids of its host adapters
 * @param catalogDigest changes whenever its catalog does
 * @param eras the protocol revisions it speaks
 * @param skillportVersion the version of Skillport it runs
 * @param pid its process id
 * @param heartbeat when it last said it is alive
 */
public record InstanceEntry(
    String id,
    URI url,
    String dcc,
    String dccVersion,
    List<String> adapters,
    String catalogDigest,
    List<String> eras,
    String skillportVersion,
    long pid,
    Instant heartbeat) {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  public InstanceEntry {
    Objects.requireNonNull(id, "id");
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "instance id " + id + " is not a name: letters, digits, '.', '_' and '-' (at most 64)");
    }
    Objects.requireNonNull(url, "url");
    dcc = dcc == null || dcc.isBlank() ? "python" : dcc;
    adapters = List.copyOf(adapters == null ? List.of() : adapters);
    catalogDigest = catalogDigest == null ? "" : catalogDigest;
    eras = List.copyOf(eras == null ? List.of() : eras);
    skillportVersion = skillportVersion == null ? "" : skillportVersion;
    heartbeat = heartbeat == null ? Instant.EPOCH : heartbeat;
  }

  /** Whether {@code id} can name an instance. */
  public static boolean validId(String id) {
    return id != null && ID.matcher(id).matches();
  }

  /** This entry with a new heartbeat and catalog digest. */
  public InstanceEntry beat(Instant at, String digest) {
    return new InstanceEntry(
        id, url, dcc, dccVersion, adapters, digest, eras, skillportVersion, pid, at);
  }

  /** The entry as stored and as {@code list_instances} shows it. */
  public ObjectNode toJson(ObjectMapper json) {
    ObjectNode out = json.createObjectNode();
    out.put("instance_id", id);
    out.put("url", url.toString());
    out.put("dcc", dcc);
    if (dccVersion != null) {
      out.put("dcc_version", dccVersion);
    }
    ArrayNode adapterIds = out.putArray("adapters");
    adapters.forEach(adapterIds::add);
    out.put("catalog_digest", catalogDigest);
    ArrayNode eraNames = out.putArray("eras");
    eras.forEach(eraNames::add);
    out.put("skillport_version", skillportVersion);
    out.put("pid", pid);
    out.put("heartbeat", heartbeat.toString());
    return out;
  }

  /**
   * Reads a stored entry.
   *
   * @throws IllegalArgumentException when a field is missing or malformed
   */
  public static InstanceEntry fromJson(JsonNode node) {
    if (!node.path("instance_id").isTextual() || !node.path("url").isTextual()) {
      throw new IllegalArgumentException("an instance entry needs instance_id and url");
    }
    return new InstanceEntry(
        node.get("instance_id").asText(),
        URI.create(node.get("url").asText()),
        node.path("dcc").asText(null),
        node.path("dcc_version").asText(null),
        strings(node.path("adapters")),
        node.path("catalog_digest").asText(""),
        strings(node.path("eras")),
        node.path("skillport_version").asText(""),
        node.path("pid").asLong(0),
        node.path("heartbeat").isTextual()
            ? Instant.parse(node.get("heartbeat").asText())
            : Instant.EPOCH);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
