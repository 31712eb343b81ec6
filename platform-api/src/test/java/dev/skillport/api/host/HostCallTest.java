package dev.skillport.api.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HostCallTest {
  private static final Path DIR = Path.of("skill");

  @Test
  void arguments_mutatedAfterwards_callKeepsItsCopy() {
    ObjectNode args = JsonNodeFactory.instance.objectNode().put("x", 1);
    HostCall call =
        new HostCall("s", "t", DIR.resolve("a.py"), DIR, args, Duration.ofSeconds(1), null);
    args.put("x", 2);
    assertThat(call.arguments().get("x").asInt()).isEqualTo(1);
    assertThat(call.context()).isSameAs(ToolContext.NONE);
  }

  @Test
  void timeout_zero_isRejected() {
    ObjectNode args = JsonNodeFactory.instance.objectNode();
    assertThatThrownBy(
            () -> new HostCall("s", "t", DIR.resolve("a.py"), DIR, args, Duration.ZERO, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void adapter_defaults_offerNoExecutorAndAreReady() {
    HostAdapter adapter =
        new HostAdapter() {
          @Override
          public String id() {
            return "plain";
          }

          @Override
          public Set<String> products() {
            return Set.of("maya");
          }
        };
    assertThat(adapter.mainThreadExecutor()).isEqualTo(Optional.empty());
    assertThat(adapter.capabilities()).isEmpty();
    assertThat(adapter.skillRoots()).isEmpty();
    assertThat(adapter.isReady()).isTrue();
  }
}
