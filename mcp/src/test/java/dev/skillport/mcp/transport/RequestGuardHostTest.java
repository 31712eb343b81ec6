package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestGuardHostTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "LOCALHOST:8080",
        "127.0.0.1:1",
        "127.0.0.1:65535",
        "[::1]",
        "[::1]:80"
      })
  void loopbackHost_withOrWithoutPort_isLoopback(String host) {
    assertThat(RequestGuard.isLoopbackHost(host)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost:",
        "localhost:123456",
        "localhost:8a",
        "localhost:+80",
        "[::1]:",
        "[::1]x",
        "[::1]:80:80",
        "example.com:80",
        "127.0.0.2",
        " "
      })
  void otherHostOrBadPort_isNotLoopback(String host) {
    assertThat(RequestGuard.isLoopbackHost(host)).isFalse();
  }

  @Test
  void requestKey_numberAndStringOfTheSameDigits_stayApart() {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    assertThat(PostExchange.requestKey(nodes.numberNode(1)))
        .isNotEqualTo(PostExchange.requestKey(nodes.textNode("1")))
        .isEqualTo(PostExchange.requestKey(nodes.numberNode(1L)));
    assertThat(PostExchange.requestKey(nodes.textNode("a")))
        .isEqualTo(PostExchange.requestKey(nodes.textNode("a")));
  }
}
