package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressBlockTest {

  private static InetAddress ip(String literal) {
    return AddressBlock.literal(literal).orElseThrow();
  }

  @ParameterizedTest(name = "{0} contains {1}: {2}")
  @CsvSource({
    "10.0.0.0/8, 10.255.3.4, true",
    "10.0.0.0/8, 11.0.0.0, false",
    "192.168.1.0/24, 192.168.1.255, true",
    "192.168.1.0/24, 192.168.2.0, false",
    "172.16.0.0/12, 172.31.255.255, true",
    "172.16.0.0/12, 172.32.0.0, false",
    "127.0.0.1, 127.0.0.1, true",
    "127.0.0.1/32, 127.0.0.2, false",
    "0.0.0.0/0, 203.0.113.9, true",
    "0.0.0.0/0, ::1, false",
    "2001:db8::/32, 2001:db8:ffff::1, true",
    "2001:db8::/32, 2001:db9::1, false",
    "2001:db8:0:0:8000::/65, 2001:db8::8000:0:0:1, true",
    "2001:db8::/65, 2001:db8::8000:0:0:1, false",
    "::1, ::1, true",
    "::1/128, ::2, false",
    "::/0, 2001:db8::1, true",
    "::/0, 10.0.0.1, false",
    "::ffff:10.0.0.0/104, 10.1.2.3, true",
    "::ffff:10.0.0.0/104, 11.1.2.3, false",
    "[2001:db8::]/48, 2001:db8:0:1::, true"
  })
  void contains_blockAndAddress_matchesByPrefixAndFamily(
      String block, String address, boolean expected) {
    assertThat(AddressBlock.parse(block).contains(ip(address))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "10.0.0.0/8, 10.0.0.0/8",
    "127.0.0.1, 127.0.0.1/32",
    "2001:DB8::/32, 2001:db8:0:0:0:0:0:0/32",
    "::1, 0:0:0:0:0:0:0:1/128",
    "::ffff:192.168.0.0/112, 192.168.0.0/16",
    "' 10.1.0.0/16 ', 10.1.0.0/16"
  })
  void parse_validBlock_isCanonical(String text, String canonical) {
    assertThat(AddressBlock.parse(text).canonical()).isEqualTo(canonical);
  }

  @ParameterizedTest(name = "refused: ''{0}''")
  @ValueSource(
      strings = {
        "",
        "/8",
        "10.0.0.0/",
        "10.0.0.0/33",
        "10.0.0.0/-1",
        "10.0.0.0/8/8",
        "10.0.0.0/ 8",
        "10.0.0",
        "10.0.0.0.0",
        "256.0.0.0",
        "010.0.0.0/8",
        "10.0.0.1/8",
        "2001:db8::1/32",
        "2001:db8::/129",
        "2001:db8:::/32",
        "fe80::1%eth0",
        "::ffff:10.0.0.0/8",
        "localhost",
        "example.com/24",
        "1e100.net",
        "10.0.0.0/0008",
        "0x0a.0.0.0"
      })
  void parse_notABlock_isRefusedWithItsText(String text) {
    assertThatThrownBy(() -> AddressBlock.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @org.junit.jupiter.api.Test
  void parse_hostBitsSet_suggestsTheNetwork() {
    assertThatThrownBy(() -> AddressBlock.parse("192.168.1.10/24"))
        .hasMessageContaining("did you mean 192.168.1.0/24?");
  }

  @ParameterizedTest(name = "not a literal: ''{0}''")
  @ValueSource(strings = {"localhost", "a.b.c.d", "1.2.3", "::g", "[::1", "1.2.3.4.", "unknown"})
  void literal_nameOrBrokenAddress_isEmpty(String text) {
    assertThat(AddressBlock.literal(text)).isEmpty();
  }
}
