package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TrustedProxiesTest {
  private final TrustedProxies proxies =
      new TrustedProxies(
          List.of(AddressBlock.parse("10.0.0.0/8"), AddressBlock.parse("2001:db8:ffff::/48")));

  private static InetAddress ip(String literal) {
    return AddressBlock.literal(literal).orElseThrow();
  }

  private static HttpFields headers(String... nameValues) {
    HttpFields.Mutable fields = HttpFields.build();
    for (int i = 0; i < nameValues.length; i += 2) {
      fields.add(nameValues[i], nameValues[i + 1]);
    }
    return fields;
  }

  private TrustedProxies.Origin origin(String peer, String... nameValues) {
    return proxies.origin(ip(peer), headers(nameValues));
  }

  @Test
  void origin_untrustedPeer_ignoresEveryForwardedHeader() {
    TrustedProxies.Origin o =
        origin(
            "192.0.2.7",
            "Forwarded",
            "for=198.51.100.1;proto=https",
            "X-Forwarded-For",
            "198.51.100.2",
            "X-Forwarded-Proto",
            "https");
    assertThat(o).isEqualTo(new TrustedProxies.Origin(ip("192.0.2.7"), false));
  }

  @Test
  void origin_trustedPeerWithForwarded_readsForAndProto() {
    TrustedProxies.Origin o = origin("10.0.0.5", "Forwarded", "for=198.51.100.1;proto=https");
    assertThat(o).isEqualTo(new TrustedProxies.Origin(ip("198.51.100.1"), true));
  }

  @Test
  void origin_forgedElementBeforeTheProxys_isSkipped() {
    // The client sent "for=1.2.3.4"; the trusted proxy appended the address it saw.
    TrustedProxies.Origin o =
        origin("10.0.0.5", "Forwarded", "for=1.2.3.4;proto=https, for=198.51.100.1;proto=http");
    assertThat(o).isEqualTo(new TrustedProxies.Origin(ip("198.51.100.1"), false));
  }

  @Test
  void origin_chainOfTrustedProxies_isFollowedToTheFirstUntrusted() {
    TrustedProxies.Origin o =
        origin(
            "10.0.0.5",
            "Forwarded",
            "for=\"[2001:db8::7]:4711\";proto=https",
            "Forwarded",
            "for=10.9.9.9;proto=http");
    assertThat(o).isEqualTo(new TrustedProxies.Origin(ip("2001:db8::7"), true));
  }

  @Test
  void origin_forwardedWithoutFor_keepsThePeerAndReadsProto() {
    assertThat(origin("10.0.0.5", "Forwarded", "proto=https"))
        .isEqualTo(new TrustedProxies.Origin(ip("10.0.0.5"), true));
  }

  @ParameterizedTest(name = "broken Forwarded ''{0}'' is ignored")
  @ValueSource(
      strings = {
        "for=\"198.51.100.1;proto=https",
        "for=198.51.100.1:80;proto=https",
        "for;proto=https",
        "for=198.51.100.1;for=198.51.100.2;proto=https",
        "=x;proto=https"
      })
  void origin_brokenForwarded_isIgnoredWhole(String value) {
    assertThat(origin("10.0.0.5", "Forwarded", value))
        .isEqualTo(new TrustedProxies.Origin(ip("10.0.0.5"), false));
  }

  @Test
  void origin_forwardedObfuscatedOrUnknown_keepsThePeer() {
    assertThat(origin("10.0.0.5", "Forwarded", "for=unknown;proto=https"))
        .isEqualTo(new TrustedProxies.Origin(ip("10.0.0.5"), true));
    assertThat(origin("10.0.0.5", "Forwarded", "for=_hidden"))
        .isEqualTo(new TrustedProxies.Origin(ip("10.0.0.5"), false));
  }

  @Test
  void origin_forwardedWinsOverXForwarded() {
    TrustedProxies.Origin o =
        origin(
            "10.0.0.5",
            "X-Forwarded-For",
            "198.51.100.9",
            "X-Forwarded-Proto",
            "http",
            "Forwarded",
            "for=198.51.100.1;proto=https");
    assertThat(o).isEqualTo(new TrustedProxies.Origin(ip("198.51.100.1"), true));
  }

  @ParameterizedTest(name = "X-Forwarded-For ''{0}'' / Proto ''{1}'' -> {2} https={3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "198.51.100.1 | https | 198.51.100.1 | true",
        "1.2.3.4, 198.51.100.1 | https | 198.51.100.1 | true",
        "198.51.100.1, 10.1.1.1 | https, http | 198.51.100.1 | true",
        "198.51.100.1:5555 | HTTPS | 198.51.100.1 | true",
        "[2001:db8::1]:5555 | http | 2001:db8::1 | false",
        "2001:db8::1 | https | 2001:db8::1 | true",
        "10.1.1.1, 10.2.2.2 | https | 10.1.1.1 | true",
        "not-an-address | https | 10.0.0.5 | true",
        "198.51.100.1, garbage | http | 10.0.0.5 | false"
      })
  void origin_xForwarded_readsTheRightmostUntrusted(
      String forwardedFor, String proto, String client, boolean https) {
    TrustedProxies.Origin o =
        origin("10.0.0.5", "X-Forwarded-For", forwardedFor, "X-Forwarded-Proto", proto);
    assertThat(o).isEqualTo(new TrustedProxies.Origin(ip(client), https));
  }

  @Test
  void origin_xForwardedProtoAlone_marksTheRequestSecure() {
    assertThat(origin("2001:db8:ffff::1", "X-Forwarded-Proto", "https"))
        .isEqualTo(new TrustedProxies.Origin(ip("2001:db8:ffff::1"), true));
  }

  @Test
  void forwardedElements_quotedValuesAndSeveralLines_areSplitOutsideQuotes() {
    List<Map<String, String>> elements =
        TrustedProxies.forwardedElements(
            List.of(
                "For=\"[2001:db8:cafe::17]:4711\";Proto=https, for=192.0.2.60;by=203.0.113.43",
                "for=\"a\\\"b,c\""));
    assertThat(elements)
        .containsExactly(
            Map.of("for", "[2001:db8:cafe::17]:4711", "proto", "https"),
            Map.of("for", "192.0.2.60", "by", "203.0.113.43"),
            Map.of("for", "a\"b,c"));
  }

  @ParameterizedTest(name = "node ''{0}'' -> {1}")
  @CsvSource({
    "192.0.2.1, 192.0.2.1",
    "192.0.2.1:80, 192.0.2.1",
    "[2001:db8::1], 2001:db8::1",
    "[2001:db8::1]:443, 2001:db8::1",
    "2001:db8::1, 2001:db8::1"
  })
  void node_addressWithOrWithoutPort_isTheAddress(String value, String address) {
    assertThat(TrustedProxies.node(value)).contains(ip(address));
  }

  @ParameterizedTest(name = "node ''{0}'' is no address")
  @ValueSource(
      strings = {"unknown", "_hidden", "192.0.2.1:http", "[2001:db8::1", "[::1]x", "host:80", ""})
  void node_notAnAddress_isEmpty(String value) {
    assertThat(TrustedProxies.node(value)).isEmpty();
  }
}
