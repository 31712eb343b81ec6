package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * A digest of a call (a tool's name and its arguments) that does not depend on the order of the
 * arguments' keys or on how a number is written: the same call digests the same on every instance.
 */
public final class CallDigest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private CallDigest() {}

  /** The SHA-256, in hex, of {@code tool} and {@code args} in canonical form. */
  public static String of(String tool, JsonNode args) {
    StringBuilder canonical = new StringBuilder(tool).append('\n');
    canonical(args == null ? NODES.objectNode() : args, canonical);
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static void canonical(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      node.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
      out.append('{');
      Iterator<Map.Entry<String, JsonNode>> it = sorted.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        out.append(NODES.textNode(e.getKey())).append(':');
        canonical(e.getValue(), out);
        if (it.hasNext()) {
          out.append(',');
        }
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        canonical(node.get(i), out);
      }
      out.append(']');
    } else if (node.isNumber()) {
      out.append(node.decimalValue().stripTrailingZeros().toPlainString());
    } else {
      out.append(node);
    }
  }
}
