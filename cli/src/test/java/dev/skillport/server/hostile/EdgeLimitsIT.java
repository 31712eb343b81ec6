package dev.skillport.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wrong tokens are limited per client address, never for everyone, and the page's cookie is {@code
 * Secure} behind a trusted TLS proxy: a server started by {@code bin/skillport}, clients on several
 * loopback addresses (127.0.0.2, 127.0.0.3, ... all reach a server on 127.0.0.1 on Linux).
 */
@EnabledOnOs(OS.LINUX)
class EdgeLimitsIT {
  private static final String TOKEN = "right-" + "7c1e9a05d3b2".repeat(3);
  private static final int LIMIT = 20;

  @TempDir Path home;
  @TempDir Path skills;

  @BeforeEach
  void skill() throws IOException {
    Path dir = Files.createDirectories(skills.resolve("one"));
    Files.writeString(
        dir.resolve("SKILL.md"), "---\nname: one\ndescription: A skill\n---\nBody.\n");
  }

  private LaunchedServer launch(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of("--no-watch", "--skills", skills.toString(), "--auth-token", TOKEN));
    args.addAll(List.of(extra));
    return LaunchedServer.start(home, args.toArray(String[]::new));
  }

  @Test
  void wrongTokens_fromOneAddress_limitThatAddressOnly() throws Exception {
    try (LaunchedServer server = launch()) {
      int port = server.uri().getPort();
      for (int i = 0; i < LIMIT; i++) {
        Reply r = mcp(port, "127.0.0.2", String.format("%06d-wrong", i), Map.of());
        assertThat(r.status()).as("wrong token %d", i).isEqualTo(401);
      }

      Reply limited = mcp(port, "127.0.0.2", "999999-wrong", Map.of());
      Reply rightFromLimited = mcp(port, "127.0.0.2", TOKEN, Map.of());
      Reply loginFromLimited = login(port, "127.0.0.2", TOKEN, Map.of());
      Reply rightElsewhere = mcp(port, "127.0.0.3", TOKEN, Map.of());
      Reply wrongElsewhere = mcp(port, "127.0.0.3", "elsewhere-wrong", Map.of());
      Reply pageElsewhere = login(port, "127.0.0.3", TOKEN, Map.of());

      assertThat(limited.status()).isEqualTo(429);
      assertThat(Integer.parseInt(limited.header("Retry-After"))).isBetween(1, 60);
      assertThat(limited.body()).contains("\"error\"");
      assertThat(rightFromLimited.status())
          .as("a limited address's tokens are not compared, the right one included")
          .isEqualTo(429);
      assertThat(loginFromLimited.status()).isEqualTo(429);
      assertThat(loginFromLimited.header("Retry-After")).isNotNull();
      assertThat(rightElsewhere.status()).as("the right token from another address").isEqualTo(200);
      assertThat(rightElsewhere.body()).contains("\"tools\"");
      assertThat(wrongElsewhere.status()).as("another address is not limited").isEqualTo(401);
      assertThat(pageElsewhere.status()).isEqualTo(303);
      assertThat(pageElsewhere.header("Set-Cookie")).startsWith("skillport_page=");

      String metrics = metrics(port, "127.0.0.3");
      assertThat(counter(metrics, "skillport_auth_failures_total")).isEqualTo(LIMIT + 1);
      assertThat(counter(metrics, "skillport_auth_limited_total")).isEqualTo(3);
      assertThat(server.isAlive()).isTrue();
    }
  }

  @Test
  void oneWrongToken_fromManyAddresses_isLimitedWhileTheRightTokenWorks() throws Exception {
    try (LaunchedServer server = launch()) {
      int port = server.uri().getPort();
      for (int i = 0; i < LIMIT; i++) {
        Reply r = mcp(port, "127.0.1." + (i + 1), "stale-token-" + i, Map.of());
        assertThat(r.status()).isEqualTo(401);
      }

      Reply stale = mcp(port, "127.0.2.1", "stale-token-again", Map.of());
      Reply right = mcp(port, "127.0.2.1", TOKEN, Map.of());

      assertThat(stale.status()).isEqualTo(429);
      assertThat(stale.header("Retry-After")).isNotNull();
      assertThat(right.status()).isEqualTo(200);
    }
  }

  @Test
  void trustedProxy_httpsForwarded_cookieIsSecure_andClientIsTheForwardedAddress()
      throws Exception {
    try (LaunchedServer server = launch("--trusted-proxy", "127.0.0.1/32")) {
      int port = server.uri().getPort();
      Map<String, String> https = Map.of("X-Forwarded-Proto", "https");

      Reply viaProxy = login(port, "127.0.0.1", TOKEN, https);
      Reply viaRfc7239 =
          login(port, "127.0.0.1", TOKEN, Map.of("Forwarded", "for=192.0.2.1;proto=https"));
      Reply forgedElsewhere = login(port, "127.0.0.2", TOKEN, https);
      Reply plainViaProxy = login(port, "127.0.0.1", TOKEN, Map.of());

      assertThat(viaProxy.status()).isEqualTo(303);
      assertThat(viaProxy.header("Set-Cookie")).contains("; Secure");
      assertThat(viaRfc7239.header("Set-Cookie")).contains("; Secure");
      assertThat(forgedElsewhere.status()).isEqualTo(303);
      assertThat(forgedElsewhere.header("Set-Cookie"))
          .as("X-Forwarded-Proto from a peer that is not a trusted proxy is ignored")
          .doesNotContain("Secure");
      assertThat(plainViaProxy.header("Set-Cookie")).doesNotContain("Secure");

      // Through the proxy, each forwarded client is limited as itself.
      for (int i = 0; i < LIMIT; i++) {
        Map<String, String> from = Map.of("X-Forwarded-For", "198.51.100.7");
        assertThat(mcp(port, "127.0.0.1", String.format("%06d-wrong", i), from).status())
            .isEqualTo(401);
      }
      Reply limited = mcp(port, "127.0.0.1", TOKEN, Map.of("X-Forwarded-For", "198.51.100.7"));
      Reply other = mcp(port, "127.0.0.1", TOKEN, Map.of("X-Forwarded-For", "198.51.100.8"));
      // A client that forges the header ahead of the proxy's value is still itself.
      Reply forged =
          mcp(port, "127.0.0.1", TOKEN, Map.of("X-Forwarded-For", "198.51.100.9, 198.51.100.7"));

      assertThat(limited.status()).isEqualTo(429);
      assertThat(other.status()).isEqualTo(200);
      assertThat(forged.status()).isEqualTo(429);
    }
  }

  @Test
  void noTrustedProxy_forwardedHeaders_areIgnored() throws Exception {
    try (LaunchedServer server = launch()) {
      int port = server.uri().getPort();
      Reply r =
          login(
              port,
              "127.0.0.1",
              TOKEN,
              Map.of("X-Forwarded-Proto", "https", "Forwarded", "for=192.0.2.1;proto=https"));

      assertThat(r.status()).isEqualTo(303);
      assertThat(r.header("Set-Cookie")).doesNotContain("Secure");
    }
  }

  @Test
  void trustedProxy_notABlock_stopsServeWithExitTwo() {
    ExternalCommand.Outcome run =
        LaunchedServer.command(
                home,
                "serve",
                "--http",
                "--port",
                "0",
                "--no-watch",
                "--skills",
                skills.toString(),
                "--trusted-proxy",
                "10.1.2.3/8")
            .run();

    assertThat(run.exit()).as(run.toString()).isEqualTo(2);
    assertThat(run.stderr()).contains("--trusted-proxy").contains("did you mean 10.0.0.0/8?");
  }

  // --- a client on a chosen loopback address -------------------------------------------------

  /** One response: status, headers (lower-case names, last value wins) and body. */
  record Reply(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** A stateless {@code tools/list} on {@code /mcp} from {@code from}, with {@code token}. */
  private static Reply mcp(int port, String from, String token, Map<String, String> extra)
      throws IOException {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"edge\",\"version\":\"1\"}}}}";
    Map<String, String> headers = new LinkedHashMap<>(extra);
    headers.put("Authorization", "Bearer " + token);
    headers.put("Content-Type", "application/json");
    headers.put("Accept", "application/json, text/event-stream");
    headers.put("MCP-Protocol-Version", "2026-07-28");
    headers.put("Mcp-Method", "tools/list");
    return exchange(port, from, "POST", "/mcp", headers, body);
  }

  /** The login form posted from {@code from} with {@code token}. */
  private static Reply login(int port, String from, String token, Map<String, String> extra)
      throws IOException {
    Map<String, String> headers = new LinkedHashMap<>(extra);
    headers.put("Content-Type", "application/x-www-form-urlencoded");
    return exchange(port, from, "POST", "/login", headers, "token=" + token + "&next=%2F");
  }

  private static String metrics(int port, String from) throws IOException {
    Reply r =
        exchange(port, from, "GET", "/metrics", Map.of("Authorization", "Bearer " + TOKEN), "");
    assertThat(r.status()).isEqualTo(200);
    return r.body();
  }

  private static long counter(String metrics, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(metrics);
    assertThat(m.find()).as("%s in\n%s", name, metrics).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }

  private static Reply exchange(
      int port, String from, String method, String path, Map<String, String> headers, String body)
      throws IOException {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head =
        new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
    headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    head.append("Content-Length: ").append(content.length).append("\r\n");
    head.append("Connection: close\r\n\r\n");
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
      out.write(content);
      out.flush();
      InputStream in = s.getInputStream();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String[] lines = text.substring(0, split).split("\r\n");
      Map<String, String> fields = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        fields.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
      return new Reply(
          Integer.parseInt(lines[0].substring(9, 12)), fields, text.substring(split + 4));
    }
  }
}
