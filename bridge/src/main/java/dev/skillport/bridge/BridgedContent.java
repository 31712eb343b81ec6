package dev.skillport.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The prompts and resources of a bridged server as the skill's own: explicit, namespaced, and
 * normalised like its tools. A prompt is {@code <skill>__<name>}; a resource or template URI is
 * {@code bridge://<skill>/<the server's URI, percent-encoded>} (a template keeps its {@code {...}}
 * expressions, so an expanded URI decodes to the server's). Names, titles and descriptions are
 * cleaned and capped; descriptions are marked as third-party text. At most {@value #MAX_ENTRIES} of
 * each kind are mounted.
 */
public final class BridgedContent {
  /** The URI scheme of bridged resources. */
  public static final String SCHEME = "bridge";

  static final int MAX_ENTRIES = 1000;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String QUALIFIER = "__";

  private BridgedContent() {}

  /** {@code bridge://<skill>/<encoded server URI>}. */
  public static String uri(String skill, String serverUri) {
    return SCHEME + "://" + skill + "/" + encode(serverUri, false);
  }

  /** The skill and the server's URI behind a {@code bridge://} URI, if it is one. */
  public static Optional<String[]> parse(String uri) {
    String prefix = SCHEME + "://";
    if (!uri.startsWith(prefix)) {
      return Optional.empty();
    }
    int slash = uri.indexOf('/', prefix.length());
    if (slash < 0) {
      return Optional.empty();
    }
    String skill = uri.substring(prefix.length(), slash);
    String decoded = decode(uri.substring(slash + 1));
    return decoded == null || skill.isEmpty()
        ? Optional.empty()
        : Optional.of(new String[] {skill, decoded});
  }

  static List<JsonNode> prompts(String skill, List<JsonNode> listed, List<String> dropped) {
    List<JsonNode> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (JsonNode p : listed) {
      if (!p.path("name").isTextual()) {
        dropped.add("a prompt without a name was left out");
        continue;
      }
      if (out.size() >= MAX_ENTRIES) {
        dropped.add("prompts beyond " + MAX_ENTRIES + " were left out");
        break;
      }
      String remote = p.get("name").asText();
      String name = skill + QUALIFIER + Text.clean(remote, 128);
      if (!seen.add(name)) {
        continue;
      }
      ObjectNode o = NODES.objectNode().put("name", name).put("remote", remote);
      o.put("description", described(skill, p));
      ArrayNode args = o.putArray("arguments");
      for (JsonNode a : p.path("arguments")) {
        if (a.path("name").isTextual() && args.size() < 64) {
          ObjectNode arg = args.addObject().put("name", Text.clean(a.get("name").asText(), 128));
          if (a.path("description").isTextual()) {
            arg.put("description", Text.clean(a.get("description").asText(), 512));
          }
          arg.put("required", a.path("required").asBoolean(false));
        }
      }
      out.add(o);
    }
    return out;
  }

  static List<JsonNode> resources(String skill, List<JsonNode> listed, List<String> dropped) {
    return entries(skill, listed, dropped, "uri", "resources");
  }

  static List<JsonNode> templates(String skill, List<JsonNode> listed, List<String> dropped) {
    return entries(skill, listed, dropped, "uriTemplate", "resource templates");
  }

  private static List<JsonNode> entries(
      String skill, List<JsonNode> listed, List<String> dropped, String field, String what) {
    List<JsonNode> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (JsonNode r : listed) {
      if (!r.path(field).isTextual() || r.get(field).asText().length() > 4096) {
        dropped.add("one of the " + what + " had no usable " + field + " and was left out");
        continue;
      }
      if (out.size() >= MAX_ENTRIES) {
        dropped.add(what + " beyond " + MAX_ENTRIES + " were left out");
        break;
      }
      String remote = r.get(field).asText();
      String ours = SCHEME + "://" + skill + "/" + encode(remote, field.equals("uriTemplate"));
      if (!seen.add(ours)) {
        continue;
      }
      ObjectNode o = NODES.objectNode().put(field, ours).put("remote", remote);
      String name = r.path("name").isTextual() ? r.get("name").asText() : remote;
      o.put("name", Text.clean(name, 200));
      if (r.path("title").isTextual()) {
        o.put("title", Text.clean(r.get("title").asText(), 200));
      }
      o.put("description", described(skill, r));
      if (r.path("mimeType").isTextual()) {
        o.put("mimeType", Text.clean(r.get("mimeType").asText(), 100));
      }
      out.add(o);
    }
    return out;
  }

  private static String described(String skill, JsonNode entry) {
    String text = entry.path("description").isTextual() ? entry.get("description").asText() : "";
    return "[third-party: the MCP server of skill "
        + skill
        + "] "
        + Text.clean(text, BridgedToolReader.MAX_DESCRIPTION);
  }

  /** Percent-encodes all but unreserved characters; a template's {@code {...}} stay as they are. */
  static String encode(String text, boolean template) {
    StringBuilder out = new StringBuilder();
    boolean inExpression = false;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (template && c == '{') {
        inExpression = true;
      }
      boolean unreserved =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '.'
              || c == '_'
              || c == '~';
      if (unreserved || inExpression) {
        out.append(c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)));
        out.append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
      if (template && c == '}') {
        inExpression = false;
      }
    }
    return out.toString();
  }

  /** Percent-decoding as UTF-8, or null for a malformed escape. */
  static String decode(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    int i = 0;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      if (c == '%') {
        if (i + 2 >= text.length()) {
          return null;
        }
        int hi = Character.digit(text.charAt(i + 1), 16);
        int lo = Character.digit(text.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        out.write(hi << 4 | lo);
        i += 3;
      } else {
        byte[] bytes = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
        i += Character.charCount(c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
