package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.owner.Principal;
import dev.skillport.mcp.Caller;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParamHeadersTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private static Caller caller(Map<String, String> headers) {
    return new Caller(Principal.LOCAL, headers::get);
  }

  private static final String SCHEMA =
      "{\"type\":\"object\",\"properties\":{"
          + "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
          + "\"job\":{\"type\":\"object\",\"properties\":{"
          + "\"priority\":{\"type\":\"integer\",\"x-mcp-header\":\"Priority\"}}}}}";

  @Test
  void aSchemaCheckedAgainIsCheckedAgainstEachCallsOwnArgumentsAndHeaders() throws Exception {
    ParamHeaders headers = new ParamHeaders();
    JsonNode schema = json(SCHEMA);

    headers.check(
        schema,
        json("{\"region\":\"eu\",\"job\":{\"priority\":3}}"),
        caller(Map.of("Mcp-Param-Region", "eu", "Mcp-Param-Priority", "3")));
    // The same schema instance, now remembered: a second call with other values still compares
    // its own arguments with its own headers.
    assertThatThrownBy(
            () ->
                headers.check(
                    schema,
                    json("{\"region\":\"us\",\"job\":{\"priority\":3}}"),
                    caller(Map.of("Mcp-Param-Region", "eu", "Mcp-Param-Priority", "3"))))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.HEADER_MISMATCH))
        .hasMessageContaining("Mcp-Param-Region");
    assertThatThrownBy(
            () ->
                headers.check(
                    schema,
                    json("{\"job\":{\"priority\":7}}"),
                    caller(Map.of("Mcp-Param-Region", "eu"))))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.HEADER_MISMATCH))
        .hasMessageContaining("Mcp-Param-Priority");
  }

  @Test
  void anUnmarkedSchemaOrNoSchemaNeedsNoHeaders() throws Exception {
    ParamHeaders headers = new ParamHeaders();
    JsonNode plain = json("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}");
    assertThatCode(() -> headers.check(plain, json("{\"text\":\"hi\"}"), caller(Map.of())))
        .doesNotThrowAnyException();
    assertThatCode(() -> headers.check(plain, json("{\"text\":\"hi\"}"), caller(Map.of())))
        .doesNotThrowAnyException();
    assertThatCode(() -> headers.check(null, json("{\"text\":\"hi\"}"), caller(Map.of())))
        .doesNotThrowAnyException();
  }
}
