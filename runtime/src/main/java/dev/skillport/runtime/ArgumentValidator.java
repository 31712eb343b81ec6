package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.skillport.model.schema.SchemaPrecheck;
import java.util.List;

/**
 * Validates call arguments against a tool's full input schema (2020-12), reporting every violation.
 * Each schema is prechecked first ({@link SchemaPrecheck}): arguments it vouches for are valid
 * without the full validator, which runs, compiled once per schema, for the others. Schemas are
 * cached by content; remote {@code $ref}s are never fetched.
 */
public final class ArgumentValidator {
  // Made at the first full validation: building the 2020-12 dialect is a noticeable part of a cold
  // start, and a server whose calls the prechecks vouch for never needs it.
  private volatile SchemaRegistry registry;
  private final Cache<JsonNode, Checks> checks = Caffeine.newBuilder().maximumSize(50_000).build();

  /** Every violation as {@code path: message}; empty when the arguments are valid. */
  public List<String> violations(JsonNode schema, JsonNode arguments) {
    Checks c = checks.get(schema, Checks::new);
    if (c.precheck.certainlyValid(arguments)) {
      return List.of();
    }
    List<Error> errors = c.compiled(this).validate(arguments);
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

  /** One schema's precheck, and its compiled validator once some arguments needed it. */
  private static final class Checks {
    final JsonNode schema;
    final SchemaPrecheck precheck;
    private volatile Schema compiled;

    Checks(JsonNode schema) {
      this.schema = schema;
      this.precheck = new SchemaPrecheck(schema, "");
    }

    Schema compiled(ArgumentValidator owner) {
      Schema s = compiled;
      if (s == null) {
        // Two threads may both compile; either result is the same immutable schema.
        s = owner.registry().getSchema(schema);
        compiled = s;
      }
      return s;
    }
  }
}
