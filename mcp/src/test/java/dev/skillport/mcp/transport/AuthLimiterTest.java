package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AuthLimiterTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AuthLimiter limiter = new AuthLimiter(now::get);

  private static InetAddress ip(String literal) {
    return AddressBlock.literal(literal).orElseThrow();
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void clientWait_pastTheLimitInAWindow_limitsThatClientOnly() {
    for (int i = 0; i < AuthLimiter.MAX_FAILURES - 1; i++) {
      limiter.failed(ip("127.0.0.2"), "guess-" + i);
    }
    assertThat(limiter.clientWait(ip("127.0.0.2"))).isZero();

    limiter.failed(ip("127.0.0.2"), "guess-last");

    assertThat(limiter.clientWait(ip("127.0.0.2"))).isEqualTo(60);
    assertThat(limiter.clientWait(ip("127.0.0.3"))).isZero();
  }

  @Test
  void clientWait_countsDownAndEndsWithTheWindow() {
    for (int i = 0; i < AuthLimiter.MAX_FAILURES; i++) {
      limiter.failed(ip("10.0.0.1"), "guess-" + i);
    }
    advance(Duration.ofMillis(40_500));
    assertThat(limiter.clientWait(ip("10.0.0.1"))).isEqualTo(20);

    advance(Duration.ofMillis(19_500));
    assertThat(limiter.clientWait(ip("10.0.0.1"))).isZero();
    limiter.failed(ip("10.0.0.1"), "again");
    assertThat(limiter.clientWait(ip("10.0.0.1"))).as("a new window").isZero();
  }

  @Test
  void clientWait_failuresSpreadOverWindows_neverLimit() {
    for (int i = 0; i < 5 * AuthLimiter.MAX_FAILURES; i++) {
      limiter.failed(ip("10.0.0.1"), "guess-" + i);
      advance(Duration.ofSeconds(4));
    }
    assertThat(limiter.clientWait(ip("10.0.0.1"))).isZero();
  }

  @Test
  void tokenWait_oneTokenFromManyClients_limitsThatTokenOnly() {
    for (int i = 0; i < AuthLimiter.MAX_FAILURES; i++) {
      limiter.failed(ip("10.0.1." + i), "stale-token-" + i);
    }
    assertThat(limiter.tokenWait("stale-anything")).as("same first characters").isEqualTo(60);
    assertThat(limiter.tokenWait("other-token")).isZero();
    assertThat(limiter.clientWait(ip("10.0.1.1"))).isZero();
  }

  @Test
  void clientKey_ipv6_isItsSlash64() {
    assertThat(AuthLimiter.clientKey(ip("2001:db8:1:2::1")))
        .isEqualTo(AuthLimiter.clientKey(ip("2001:db8:1:2:ffff::9")))
        .isNotEqualTo(AuthLimiter.clientKey(ip("2001:db8:1:3::1")));
    assertThat(AuthLimiter.clientKey(ip("10.0.0.1")))
        .isNotEqualTo(AuthLimiter.clientKey(ip("10.0.0.2")));
  }

  @Test
  void clientWait_ipv6HostRotatingThroughItsSlash64_isLimited() {
    for (int i = 0; i < AuthLimiter.MAX_FAILURES; i++) {
      limiter.failed(ip("2001:db8:1:2::" + Integer.toHexString(i + 1)), "guess-" + i);
    }
    assertThat(limiter.clientWait(ip("2001:db8:1:2::ffff"))).isPositive();
    assertThat(limiter.clientWait(ip("2001:db8:1:3::1"))).isZero();
  }
}
