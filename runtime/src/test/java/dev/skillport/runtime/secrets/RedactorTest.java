package dev.skillport.runtime.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "sk-live-0123456789abcdef";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "API_TOKEN",
        "api_key",
        "apiKey",
        "APIKEY",
        "x-api-key",
        "client.secret",
        "DB_PASSWORD",
        "password",
        "GITHUB_PERSONAL_ACCESS_TOKEN",
        "secretKey",
        "Authorization",
        "tokens"
      })
  void isSecret_secretWords_true(String name) {
    assertThat(SecretNames.defaults().isSecret(name)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"keywords", "tokenizer", "name", "description", "search-hint", "dcc"})
  void isSecret_wordsThatOnlyStartWithOne_false(String name) {
    assertThat(SecretNames.defaults().isSecret(name)).isFalse();
  }

  @Test
  void isSecret_operatorNamesAndGlobs_true() {
    SecretNames names = SecretNames.defaults().with(List.of("MY_SERVICE", "*_CREDS"));
    assertThat(names.isSecret("my_service")).isTrue();
    assertThat(names.isSecret("AWS_CREDS")).isTrue();
    assertThat(names.isSecret("MY_SERVICE_URL")).isFalse();
  }

  @Test
  void yaml_secretValues_maskedInPlaceKeepingEverythingElse() {
    String yaml =
        "# a bridge\n"
            + "command: node   # the runtime\n"
            + "env:\n"
            + "  API_TOKEN: \""
            + SECRET
            + "\"\n"
            + "  FROM_ENV: ${MY_TOKEN}\n"
            + "  OTHER_KEY: ${OTHER}\n"
            + "  LOG: debug\n"
            + "  PASSWORD: |\n"
            + "    line one\n"
            + "    line two\n"
            + "tags: [a, b]\n"
            + "api_keys: [first-secret-value, second-secret-value]\n"
            + "schema: {properties: {api_key: {type: string}}}\n";

    String out = new Redactor().yaml(yaml);

    assertThat(out)
        .doesNotContain(SECRET)
        .doesNotContain("line one")
        .doesNotContain("first-secret-value")
        .contains("# a bridge\ncommand: node   # the runtime\n")
        .contains("  API_TOKEN: \"[REDACTED]\"\n")
        .contains("  OTHER_KEY: ${OTHER}\n")
        .contains("  LOG: debug\n")
        .contains("  PASSWORD: \"[REDACTED]\"\ntags: [a, b]\n")
        .contains("api_keys: [\"[REDACTED]\", \"[REDACTED]\"]")
        .contains("schema: {properties: {api_key: {type: string}}}");
  }

  @Test
  void yaml_json_staysJson() throws Exception {
    String json = "{\n  \"client_secret\": \"" + SECRET + "\",\n  \"port\": 8080\n}\n";
    String out = new Redactor().yaml(json);
    JsonNode parsed = JSON.readTree(out);
    assertThat(parsed.path("client_secret").asText()).isEqualTo(Redactor.MASK);
    assertThat(parsed.path("port").asInt()).isEqualTo(8080);
  }

  @Test
  void yaml_notYaml_fallsBackToFreeText() {
    String out = new Redactor().yaml("API_TOKEN: [unclosed " + SECRET + "\n:\t- {");
    assertThat(out).doesNotContain(SECRET);
  }

  @Test
  void text_assignmentsOfSecretNames_masked() {
    Redactor r = new Redactor();
    assertThat(r.text("export SERVICE_TOKEN=" + SECRET + " && run"))
        .isEqualTo("export SERVICE_TOKEN=[REDACTED] && run");
    assertThat(r.text("{\"password\": \"" + SECRET + "\", \"user\": \"bob\"}"))
        .isEqualTo("{\"password\": \"[REDACTED]\", \"user\": \"bob\"}");
    assertThat(r.text("Authorization: Bearer " + SECRET)).isEqualTo("Authorization: [REDACTED]");
    assertThat(r.text("GET /x?api_key=" + SECRET + "&page=2"))
        .isEqualTo("GET /x?api_key=[REDACTED]&page=2");
    assertThat(r.text("keywords: maya, mesh")).isEqualTo("keywords: maya, mesh");
    assertThat(r.text("token: ${API_TOKEN}")).isEqualTo("token: ${API_TOKEN}");
    assertThat(r.text("if key == other")).isEqualTo("if key == other");
  }

  @Test
  void addSecret_valueMaskedAnywhereOnceLongEnough() {
    Redactor r = new Redactor();
    assertThat(r.addSecret("12345")).isFalse();
    long before = r.generation();
    assertThat(r.addSecret(SECRET)).isTrue();
    assertThat(r.addSecret(SECRET)).isFalse();
    assertThat(r.generation()).isGreaterThan(before);
    assertThat(r.text("the child said " + SECRET + "!")).isEqualTo("the child said [REDACTED]!");
    assertThat(r.text("count 12345")).isEqualTo("count 12345");
  }

  @Test
  void configure_environmentValuesOfSecretAndMarkedNames_becomeSecrets() {
    Redactor r = new Redactor();
    r.configure(
        SecretNames.defaults().with(List.of("MY_SERVICE")),
        Map.of(
            "GITHUB_TOKEN", "ghp-abcdefghijkl",
            "MY_SERVICE", "marked-service-value",
            "HOME", "/home/someone"));
    assertThat(r.text("ghp-abcdefghijkl marked-service-value /home/someone"))
        .isEqualTo("[REDACTED] [REDACTED] /home/someone");
  }

  @Test
  void wire_leavesTheGivenTreeAlone_andReturnsItWhenClean() throws Exception {
    Redactor r = new Redactor();
    r.addSecret(SECRET);
    JsonNode clean = JSON.readTree("{\"a\":[\"x\",{\"b\":\"y\"}]}");
    assertThat(r.wire(clean)).isSameAs(clean);
    JsonNode dirty = JSON.readTree("{\"a\":[\"x\",{\"b\":\"key " + SECRET + "\"}]}");
    JsonNode out = r.wire(dirty);
    assertThat(out.toString()).isEqualTo("{\"a\":[\"x\",{\"b\":\"key [REDACTED]\"}]}");
    assertThat(dirty.toString()).contains(SECRET);
  }

  @Test
  void keyed_secretKeysMasked_schemasKeepTheirShape() throws Exception {
    JsonNode tree =
        JSON.readTree(
            "{\"vendor\":{\"api_key\":\"abc\",\"name\":\"n\"},\"tokens\":[\"t1\",\"t2\"],"
                + "\"properties\":{\"password\":{\"type\":\"string\"}},\"key\":null}");
    JsonNode out = new Redactor().keyed(tree);
    assertThat(out.toString())
        .isEqualTo(
            "{\"vendor\":{\"api_key\":\"[REDACTED]\",\"name\":\"n\"},"
                + "\"tokens\":[\"[REDACTED]\",\"[REDACTED]\"],"
                + "\"properties\":{\"password\":{\"type\":\"string\"}},\"key\":null}");
  }

  @Test
  void skillMd_frontmatterByStructure_bodyAsText() {
    String md =
        "---\nname: s\ndescription: d\nmetadata:\n  vendor:\n    api_key: "
            + SECRET
            + "\n---\n# Use\n\nRun with `export API_TOKEN=abcdefgh123`.\n";
    String out = new Redactor().skillMd(md);
    assertThat(out)
        .doesNotContain(SECRET)
        .doesNotContain("abcdefgh123")
        .startsWith("---\nname: s\ndescription: d\n")
        .contains("    api_key: \"[REDACTED]\"\n---\n# Use\n");
  }

  @Test
  void file_sourceCode_onlyQuotedValuesMasked() {
    byte[] py =
        ("API_KEY = \"" + SECRET + "\"\ndef f(api_key: str = None):\n    return api_key\n")
            .getBytes(StandardCharsets.UTF_8);
    String out =
        new String(new Redactor().file(Path.of("tool.py"), true, py), StandardCharsets.UTF_8);
    assertThat(out)
        .isEqualTo("API_KEY = \"[REDACTED]\"\ndef f(api_key: str = None):\n    return api_key\n");
  }

  @Test
  void file_binaryOrUnchanged_sameBytes() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
    Redactor r = new Redactor();
    assertThat(r.file(Path.of("a.png"), false, png)).isSameAs(png);
    byte[] text = "plain words\n".getBytes(StandardCharsets.UTF_8);
    assertThat(r.file(Path.of("a.txt"), true, text)).isSameAs(text);
  }

  @Test
  void diagnostic_messageAndHintRedacted() {
    Redactor r = new Redactor();
    r.addSecret(SECRET);
    Diagnostic d =
        Diagnostic.of(
            DiagnosticCode.DCC_MCP_VALUE_INVALID, "layer '" + SECRET + "' is unknown", null, 3, 1);
    Diagnostic out = r.diagnostic(d);
    assertThat(out.message()).isEqualTo("layer '[REDACTED]' is unknown");
    assertThat(out.line()).isEqualTo(3);
  }
}
