package dev.skillport.registry.search;

import dev.skillport.model.skill.Scope;
import java.util.List;

/**
 * A {@code search_skills} request.
 *
 * @param query free text; blank browses by scope then name
 * @param tags every tag must be present (case-insensitive)
 * @param dcc the host product, or {@code null}
 * @param scope the scope, or {@code null}
 * @param limit 1–100
 * @param includeHidden include skills with {@code allow-implicit-invocation: false}
 */
public record SkillQuery(
    String query, List<String> tags, String dcc, Scope scope, int limit, boolean includeHidden) {
  public SkillQuery {
    query = query == null ? "" : query;
    tags = tags == null ? List.of() : List.copyOf(tags);
    if (limit < 1 || limit > 100) {
      throw new IllegalArgumentException("limit must be between 1 and 100");
    }
  }
}
