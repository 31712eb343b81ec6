package dev.skillport.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.runtime.jobs.JobResult;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The page shows a caller its own calls and jobs, whether it presents its token or signed in with
 * it; a caller signed in with an admin token (an operator) sees everyone's.
 */
class PageOwnershipTest {
  private static final String ALICE = "alice-page-token-0123456789";
  private static final String BOB = "bob-page-token-9876543210";
  private static final String OPS = "operator-page-token-5555555";

  private static SkillportServer server;
  private static StreamableHttpTransport http;
  private static HttpClient client;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    server = SkillportServer.start(ServeConfig.of(List.<SkillRoot>of()).withWatch(false), "test");
    http =
        StreamableHttpTransport.builder(server.mcp())
            .host("127.0.0.1")
            .port(0)
            .authTokens(List.of(ALICE, BOB))
            .adminTokens(List.of(OPS))
            .readiness(server::isReady)
            .routes(server.webRoutes())
            .build();
    http.start();
    client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    base = URI.create("http://127.0.0.1:" + http.port());
    server
        .service()
        .calls()
        .record("s1", principal(ALICE), "alices_tool", List.of(), Duration.ofMillis(1), "ok");
    server
        .service()
        .calls()
        .record("s2", principal(BOB), "bobs_tool", List.of(), Duration.ofMillis(1), "ok");
    server
        .service()
        .jobs()
        .submit(
            "alices_job_tool",
            null,
            null,
            principal(ALICE),
            null,
            ctx -> JobResult.completed(JsonNodeFactory.instance.objectNode()),
            u -> {});
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** The principal a token names: {@code token:} and 12 hex digits of its SHA-256. */
  private static String principal(String token) throws Exception {
    byte[] digest =
        MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    return "token:" + HexFormat.of().formatHex(digest, 0, 6);
  }

  private static HttpResponse<String> get(String path, String header, String value)
      throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path)).header(header, value).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String signIn(String token) throws Exception {
    String form = "token=" + URLEncoder.encode(token, StandardCharsets.UTF_8) + "&next=/calls";
    HttpResponse<String> signedIn =
        client.send(
            HttpRequest.newBuilder(base.resolve("/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String cookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
    return cookie.substring(0, cookie.indexOf(';'));
  }

  @Test
  void calls_withACallersToken_showItsOwnOnly() throws Exception {
    HttpResponse<String> bobs = get("/calls", "Authorization", "Bearer " + BOB);

    assertThat(bobs.statusCode()).isEqualTo(200);
    assertThat(bobs.body()).contains("bobs_tool").doesNotContain("alices_tool");
  }

  @Test
  void callsAndJobs_signedInAsACaller_showItsOwnOnly() throws Exception {
    String cookie = signIn(BOB);

    HttpResponse<String> calls = get("/calls", "Cookie", cookie);
    HttpResponse<String> jobs = get("/jobs", "Cookie", cookie);
    HttpResponse<String> alicesJobs = get("/jobs", "Authorization", "Bearer " + ALICE);

    assertThat(calls.body()).contains("bobs_tool").doesNotContain("alices_tool");
    assertThat(jobs.statusCode()).isEqualTo(200);
    assertThat(jobs.body()).doesNotContain("alices_job_tool");
    assertThat(alicesJobs.body()).contains("alices_job_tool");
  }

  @Test
  void callsAndJobs_ofAnOperator_showEveryones() throws Exception {
    String cookie = signIn(OPS);

    HttpResponse<String> calls = get("/calls", "Cookie", cookie);
    HttpResponse<String> jobs = get("/jobs", "Authorization", "Bearer " + OPS);

    assertThat(calls.body()).contains("bobs_tool").contains("alices_tool");
    assertThat(jobs.body()).contains("alices_job_tool");
  }
}
