package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ArgumentValidatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ArgumentValidator validator = new ArgumentValidator();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void violations_validArguments_none() throws Exception {
    JsonNode schema =
        json(
            "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},"
                + "\"n\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"text\"]}");

    assertThat(validator.violations(schema, json("{\"text\":\"hi\",\"n\":3}"))).isEmpty();
  }

  @Test
  void violations_wrongTypeAndMissingRequired_areEachReportedWithTheirPlace() throws Exception {
    JsonNode schema =
        json(
            "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},"
                + "\"n\":{\"type\":\"integer\"}},\"required\":[\"text\"]}");

    List<String> found = validator.violations(schema, json("{\"n\":\"three\"}"));

    assertThat(found).hasSize(2);
    assertThat(found).anyMatch(v -> v.startsWith("/n: "));
    assertThat(found).anyMatch(v -> v.contains("text"));
  }

  @Test
  void violations_keywordThePrecheckDoesNotKnow_isStillEnforced() throws Exception {
    JsonNode schema =
        json(
            "{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\",\"maxLength\":3}}}");

    assertThat(validator.violations(schema, json("{\"code\":\"abc\"}"))).isEmpty();
    assertThat(validator.violations(schema, json("{\"code\":\"abcd\"}")))
        .singleElement()
        .asString()
        .startsWith("/code: ");
  }

  /**
   * The precheck in front of the validator never changes a verdict: over random arguments for
   * schemas of the shapes tools declare, the answer is valid exactly when the full validator says
   * so.
   */
  @Test
  void violations_randomArguments_agreeWithTheFullValidator() throws Exception {
    List<JsonNode> schemas =
        List.of(
            json(
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"enum\":[\"x\",\"y\"]},"
                    + "\"b\":{\"type\":\"number\",\"minimum\":0,\"maximum\":10},"
                    + "\"c\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}},"
                    + "\"required\":[\"a\"],\"additionalProperties\":false}"),
            json(
                "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
                    + "\"pattern\":\"^[a-z]+$\"},\"flag\":{\"type\":\"boolean\"},"
                    + "\"opt\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]}},"
                    + "\"patternProperties\":{\"^x-\":{\"type\":\"string\"}}}"),
            json(
                "{\"type\":\"object\",\"$defs\":{\"p\":{\"type\":\"object\",\"properties\":"
                    + "{\"x\":{\"type\":\"integer\"}},\"required\":[\"x\"]}},"
                    + "\"properties\":{\"point\":{\"$ref\":\"#/$defs/p\"},"
                    + "\"size\":{\"type\":\"integer\",\"maxLength\":2,\"const\":4}}}"));
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    SplittableRandom random = new SplittableRandom(20261127);
    int valid = 0;
    for (int i = 0; i < 3000; i++) {
      JsonNode schema = schemas.get(i % schemas.size());
      JsonNode arguments = randomArguments(random);
      boolean full = registry.getSchema(schema).validate(arguments).isEmpty();

      assertThat(validator.violations(schema, arguments).isEmpty())
          .as("%s against %s", arguments, schema)
          .isEqualTo(full);
      valid += full ? 1 : 0;
    }
    assertThat(valid).as("some random arguments are valid").isGreaterThan(100);
  }

  private static JsonNode randomArguments(SplittableRandom random) {
    ObjectNode out = JSON.createObjectNode();
    String[] names = {"a", "b", "c", "name", "flag", "opt", "x-tag", "point", "size", "other"};
    for (String name : names) {
      if (random.nextInt(3) == 0) {
        out.set(name, randomValue(random, 2));
      }
    }
    if (random.nextBoolean()) {
      out.put("a", random.nextBoolean() ? "x" : "y");
    }
    return out;
  }

  private static JsonNode randomValue(SplittableRandom random, int depth) {
    switch (random.nextInt(depth > 0 ? 9 : 7)) {
      case 0:
        return JSON.getNodeFactory().textNode(random.nextBoolean() ? "x" : "abc");
      case 1:
        return JSON.getNodeFactory().textNode(random.nextBoolean() ? "Ab1" : "");
      case 2:
        return JSON.getNodeFactory().numberNode(random.nextInt(-3, 14));
      case 3:
        return JSON.getNodeFactory().numberNode(random.nextInt(-3, 14) + 0.5);
      case 4:
        return JSON.getNodeFactory().booleanNode(random.nextBoolean());
      case 5:
        return JSON.getNodeFactory().nullNode();
      case 6:
        return JSON.getNodeFactory().numberNode(4.0);
      case 7:
        {
          var array = JSON.createArrayNode();
          int n = random.nextInt(3);
          for (int i = 0; i < n; i++) {
            array.add(randomValue(random, depth - 1));
          }
          return array;
        }
      default:
        {
          ObjectNode object = JSON.createObjectNode();
          if (random.nextBoolean()) {
            object.set("x", randomValue(random, depth - 1));
          }
          return object;
        }
    }
  }
}
