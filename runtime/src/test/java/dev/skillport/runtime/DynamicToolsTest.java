package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.TestSkills;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dynamic tool registry's lifetime rules and bounds, and the script a code tool runs. */
class DynamicToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Principal A = Principal.of("token:aaaa");

  private final Catalog catalog =
      TestSkills.catalog(1, TestSkills.named("alpha").tool("echo").build());
  private final MutableClock clock = new MutableClock();
  private final DynamicTools tools = new DynamicTools(null, clock);

  @Test
  void ttl_expiresTheTool_andIsCappedAtADay() throws Exception {
    SessionState session = session();
    JsonNode short_ = register(session, "\"ttl_secs\": 10");
    String name = short_.path("tool_name").asText();
    assertThat(short_.path("expires_in_sec").asLong()).isEqualTo(10);
    assertThat(tools.find(session, A, name)).isPresent();

    clock.advance(Duration.ofSeconds(10));
    assertThat(tools.find(session, A, name)).isEmpty();
    assertThat(list(session).path("count").asInt()).isZero();

    JsonNode long_ = register(session, "\"ttl_secs\": 999999");
    assertThat(long_.path("expires_in_sec").asLong()).isEqualTo(DynamicTools.MAX_TTL_SECS);
    JsonNode zero = result(session, "{\"tool_spec\": " + spec("\"ttl_secs\": 0") + "}");
    assertThat(zero.path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
  }

  @Test
  void sessionClosed_forgetsItsToolsOnly() throws Exception {
    SessionState one = session();
    SessionState two = session();
    String a = register(one, null).path("tool_name").asText();
    String b = register(two, null).path("tool_name").asText();

    tools.sessionClosed(one);

    assertThat(tools.find(one, A, a)).isEmpty();
    assertThat(tools.find(two, A, b)).isPresent();
  }

  @Test
  void anOwner_holdsAtMost64() throws Exception {
    SessionState session = session();
    for (int i = 0; i < DynamicTools.MAX_PER_OWNER; i++) {
      assertThat(register(session, null).path("success").asBoolean()).isTrue();
    }
    JsonNode refused = result(session, "{\"tool_spec\": " + spec(null) + "}");
    assertThat(refused.path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
    assertThat(refused.path("message").asText()).contains("64");
    // Another session of the same caller is another owner.
    assertThat(register(session(), null).path("success").asBoolean()).isTrue();
  }

  @Test
  void codeScript_makesTheBodyAFunctionOfParams() {
    String script = DynamicCode.script("x = params['a']\nif x:\n    return {'x': x}");
    assertThat(script)
        .contains("params = _skillport_json.loads(_skillport_sys.stdin.read() or \"{}\")")
        .contains(
            "def _skillport_dynamic_tool(params):\n    x = params['a']\n    if x:\n        return {'x': x}\n")
        .contains("    return None\n")
        .endsWith("    print(_skillport_json.dumps(_skillport_result, default=str))\n");
  }

  private JsonNode register(SessionState session, String extra) throws Exception {
    JsonNode out = result(session, "{\"tool_spec\": " + spec(extra) + "}");
    assertThat(out.path("success").asBoolean()).as(out.toString()).isTrue();
    return out;
  }

  private static String spec(String extra) {
    return "{\"name\": \"t\", \"description\": \"d\", \"tool\": \"alpha__echo\""
        + (extra == null ? "" : ", " + extra)
        + "}";
  }

  private JsonNode result(SessionState session, String args) throws Exception {
    ToolResult r = tools.register(catalog, session, JSON.readTree(args), as(A));
    return r.structured() != null ? r.structured() : JSON.createObjectNode();
  }

  private JsonNode list(SessionState session) {
    return tools.list(session, as(A)).structured();
  }

  private SessionState session() {
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha"), true);
    return new SessionState(view, m -> {});
  }

  private static ToolContext as(Principal who) {
    return new ToolContext() {
      @Override
      public void progress(double progress, Double total, String message) {}

      @Override
      public void log(String level, String message) {}

      @Override
      public boolean isCancelled() {
        return false;
      }

      @Override
      public Principal principal() {
        return who;
      }
    };
  }

  private static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
