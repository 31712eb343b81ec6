package dev.skillport.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

class ToolHandlersTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void build_twoHandlers_providerKeepsThemInOrderAndTheyAnswer() throws Exception {
    ToolHandlerProvider provider =
        ToolHandlers.builder()
            .handler("demo.hello", inv -> Results.text("hello " + Arguments.of(inv).string("name")))
            .handler("demo.fail", inv -> Results.error("no"))
            .build();

    assertThat(provider.handlers()).containsOnlyKeys("demo.hello", "demo.fail");
    assertThat(provider.handlers().keySet()).containsExactly("demo.hello", "demo.fail");
    ToolInvocation call =
        new ToolInvocation("demo", "hello", JSON.readTree("{\"name\":\"Ada\"}"), null);
    assertThat(provider.handlers().get("demo.hello").call(call).content())
        .containsExactly(new Content.Text("hello Ada"));
  }

  @Test
  void handler_sameIdTwice_refused() {
    ToolHandlers.Builder builder = ToolHandlers.builder().handler("x", inv -> Results.text(""));

    assertThatThrownBy(() -> builder.handler("x", inv -> Results.text("")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x'");
  }

  @Test
  void handler_blankId_refused() {
    assertThatThrownBy(() -> ToolHandlers.builder().handler(" ", inv -> Results.text("")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void build_laterAdditions_doNotChangeAnEarlierProvider() {
    ToolHandlers.Builder builder = ToolHandlers.builder().handler("a", inv -> Results.text(""));
    ToolHandlerProvider first = builder.build();

    builder.handler("b", inv -> Results.text(""));

    assertThat(first.handlers()).containsOnlyKeys("a");
    assertThatThrownBy(() -> first.handlers().remove("a"))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
