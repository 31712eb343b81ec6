package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;

/**
 * Validates call arguments against a tool's full input schema (2020-12), reporting every violation.
 * Compiled schemas are cached by schema content; remote {@code $ref}s are never fetched.
 */
public final class ArgumentValidator {
  // Made at the first validation: building the 2020-12 dialect is a noticeable part of a cold
  // start, and a server that is only listed never needs it.
  private volatile SchemaRegistry registry;
  private final Cache<JsonNode, Schema> compiled =
      Caffeine.newBuilder().maximumSize(50_000).build();

  /** Every violation as {@code path: message}; empty when the arguments are valid. */
  public List<String> violations(JsonNode schema, JsonNode arguments) {
    Schema s = compiled.get(schema, registry()::getSchema);
    List<Error> errors = s.validate(arguments);
    return errors.stream()
        .map(
            e -> {
              String where =
                  e.getInstanceLocation() == null ? "" : e.getInstanceLocation().toString();
              return (where.isEmpty() || where.equals("$") ? "" : where + ": ") + e.getMessage();
            })
        .toList();
  }

  private SchemaRegistry registry() {
    SchemaRegistry r = registry;
    if (r == null) {
      synchronized (this) {
        r = registry;
        if (r == null) {
          r = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
          registry = r;
        }
      }
    }
    return r;
  }
}
