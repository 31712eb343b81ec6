package dev.skillport.server.resources;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Cursor pagination for the list methods ({@code prompts/list}, {@code resources/list}, {@code
 * skills/list}, …): the cursor is an opaque token for an offset; a malformed one is invalid params.
 */
public final class Paging {
  private static final String PREFIX = "o:";

  private Paging() {}

  /** One page and the cursor of the next one, or {@code null} when this is the last. */
  public record Page<T>(List<T> items, String nextCursor) {
    public Page {
      items = List.copyOf(items);
    }
  }

  /** The page of {@code all} that starts at {@code cursor} (null = the first page). */
  public static <T> Page<T> page(List<T> all, String cursor, int size) throws McpException {
    int from = cursor == null ? 0 : offset(cursor, all.size());
    int to = Math.min(all.size(), from + size);
    return new Page<>(all.subList(from, to), to < all.size() ? encode(to) : null);
  }

  /** The {@code cursor} parameter of a list request, or {@code null}. */
  public static String cursor(JsonNode params) throws McpException {
    JsonNode c = params.get("cursor");
    if (c == null || c.isNull()) {
      return null;
    }
    if (!c.isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "cursor must be a string");
    }
    return c.asText();
  }

  private static String encode(int offset) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((PREFIX + offset).getBytes(StandardCharsets.UTF_8));
  }

  private static int offset(String cursor, int size) throws McpException {
    try {
      String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (decoded.startsWith(PREFIX)) {
        int offset = Integer.parseInt(decoded.substring(PREFIX.length()));
        if (offset >= 0 && offset <= size) {
          return offset;
        }
      }
    } catch (IllegalArgumentException e) {
      // Falls through to the error below: a cursor we did not issue.
    }
    throw new McpException(ErrorKind.INVALID_PARAMS, "invalid cursor");
  }
}
