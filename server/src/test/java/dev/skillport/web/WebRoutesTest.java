package dev.skillport.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page over a real HTTP server on 127.0.0.1 with a token: sign-in, refusals, escaping of what
 * skills say, diagnostics with their lines, the security headers, and {@code /metrics}.
 */
class WebRoutesTest {
  private static final String TOKEN = "page-test-token-0123456789";

  @TempDir static Path dir;
  private static SkillportServer server;
  private static StreamableHttpTransport http;
  private static HttpClient client;
  private static URI base;

  static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @BeforeAll
  static void start() throws Exception {
    Path high = dir.resolve("high");
    Path low = dir.resolve("low");
    write(
        high.resolve("hostile/SKILL.md"),
        """
        ---
        name: hostile
        description: "Says <script>alert('x')</script> and <img src=x onerror=alert(1)>"
        metadata:
          dcc-mcp:
            tags: ["<b>tag</b>"]
        ---
        # Heading

        <script>alert('body')</script>

        [click](javascript:alert(1)) and [docs](https://example.org/docs)
        """);
    write(
        high.resolve("broken/SKILL.md"),
        """
        ---
        name: broken
        description: A broken skill
        metadata:
          dcc-mcp:
            tools: missing.yaml
        ---
        Broken.
        """);
    write(
        high.resolve("twin/SKILL.md"),
        "---\nname: twin\ndescription: The served twin\n---\nServed.\n");
    write(
        low.resolve("twin/SKILL.md"),
        "---\nname: twin\ndescription: The shadowed twin\n---\nShadowed.\n");
    write(
        high.resolve("leaky/SKILL.md"),
        """
        ---
        name: leaky
        description: "Calls the render farm; API_KEY=farm-key-4f9a2c81d7 goes in the header"
        metadata:
          api_token: "tok-live-93b1c7e5a2d4"
          dcc-mcp:
            tools: tools.yaml
        ---
        Use the token tok-live-93b1c7e5a2d4 when asked.
        """);
    write(
        high.resolve("leaky/tools.yaml"),
        """
        tools:
          - name: submit
            description: Submits with tok-live-93b1c7e5a2d4
            input_schema:
              type: object
              properties:
                password: {type: string, default: "hunter2-default-pw"}
        """);
    server =
        SkillportServer.start(
            ServeConfig.of(List.of(SkillRoot.of(high, Scope.TEAM), SkillRoot.of(low, Scope.REPO)))
                .withWatch(false),
            "test");
    http =
        StreamableHttpTransport.builder(server.mcp())
            .host("127.0.0.1")
            .port(0)
            .authToken(TOKEN)
            .readiness(server::isReady)
            .routes(server.webRoutes())
            .build();
    http.start();
    client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    base = URI.create("http://127.0.0.1:" + http.port());
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

  private static HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).GET();
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> login(String token, String next) throws Exception {
    String form =
        "token="
            + URLEncoder.encode(token, StandardCharsets.UTF_8)
            + "&next="
            + URLEncoder.encode(next, StandardCharsets.UTF_8);
    return client.send(
        HttpRequest.newBuilder(base.resolve("/login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String bearer() {
    return "Bearer " + TOKEN;
  }

  @Test
  void page_withoutToken_redirectsToLogin_andMetricsAndEventsAre401() throws Exception {
    HttpResponse<String> page = get("/skills/twin?x=1");
    HttpResponse<String> metrics = get("/metrics");
    HttpResponse<String> events = get("/events");
    HttpResponse<String> wrongHeader = get("/metrics", "Authorization", "Bearer nope");

    assertThat(page.statusCode()).isEqualTo(303);
    assertThat(page.headers().firstValue("Location"))
        .hasValue("/login?next=%2Fskills%2Ftwin%3Fx%3D1");
    assertThat(metrics.statusCode()).isEqualTo(401);
    assertThat(events.statusCode()).isEqualTo(401);
    assertThat(wrongHeader.statusCode()).isEqualTo(401);
  }

  @Test
  void login_wrongToken_isRefused_rightToken_setsAnHttpOnlyCookieThatIsNotTheToken()
      throws Exception {
    HttpResponse<String> form = get("/login?next=/jobs");
    HttpResponse<String> wrong = login("not-the-token", "/jobs");
    HttpResponse<String> right = login(TOKEN, "/jobs");

    assertThat(form.statusCode()).isEqualTo(200);
    assertThat(form.body()).contains("name=\"token\"").contains("value=\"/jobs\"");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).contains("That token is not accepted.");
    assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
    assertThat(right.statusCode()).isEqualTo(303);
    assertThat(right.headers().firstValue("Location")).hasValue("/jobs");
    String cookie = right.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie)
        .startsWith(PageSessions.COOKIE + "=")
        .contains("HttpOnly")
        .containsIgnoringCase("SameSite=Strict")
        .doesNotContain(TOKEN);
    String pair = cookie.substring(0, cookie.indexOf(';'));

    HttpResponse<String> signedIn = get("/jobs", "Cookie", pair);
    HttpResponse<String> forged = get("/jobs", "Cookie", PageSessions.COOKIE + "=" + TOKEN);

    assertThat(signedIn.statusCode()).isEqualTo(200);
    assertThat(signedIn.body()).contains("Jobs and workflow runs").contains("Sign out");
    assertThat(forged.statusCode()).isEqualTo(303);
  }

  @Test
  void login_nextOutsideThisServer_goesHome() throws Exception {
    HttpResponse<String> away = login(TOKEN, "//evil.example/x");

    assertThat(away.headers().firstValue("Location")).hasValue("/");
  }

  @Test
  void everyPage_carriesAStrictContentSecurityPolicy() throws Exception {
    for (String path : List.of("/", "/skills/twin", "/jobs", "/calls", "/server", "/login")) {
      HttpResponse<String> response = get(path, "Authorization", bearer());

      assertThat(response.statusCode()).as(path).isEqualTo(200);
      String csp = response.headers().firstValue("Content-Security-Policy").orElseThrow();
      assertThat(csp)
          .as(path)
          .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'")
          .doesNotContain("unsafe-inline", "unsafe-eval");
      assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      assertThat(response.body()).as(path).doesNotContain(TOKEN);
    }
  }

  @Test
  void skillText_isEscaped_everywhere() throws Exception {
    HttpResponse<String> list = get("/?q=hostile", "Authorization", bearer());
    HttpResponse<String> skill = get("/skills/hostile", "Authorization", bearer());

    for (HttpResponse<String> page : List.of(list, skill)) {
      assertThat(page.body())
          .contains("&lt;script&gt;alert(")
          .contains("&lt;img src=x onerror=alert(1)&gt;")
          .doesNotContain("<script>alert", "<img src=x", "<b>tag</b>");
    }
    assertThat(skill.body())
        .contains("&lt;script&gt;alert(")
        .doesNotContain("javascript:alert")
        .contains("rel=\"nofollow noopener noreferrer\" href=\"https://example.org/docs\"");
  }

  @Test
  void secretsWrittenInASkill_neverReachThePage() throws Exception {
    HttpResponse<String> list = get("/", "Authorization", bearer());
    HttpResponse<String> skill = get("/skills/leaky", "Authorization", bearer());

    for (HttpResponse<String> page : List.of(list, skill)) {
      assertThat(page.body())
          .doesNotContain("tok-live-93b1c7e5a2d4", "farm-key-4f9a2c81d7")
          .contains("[REDACTED]");
    }
    assertThat(skill.body()).doesNotContain("hunter2-default-pw").contains("submit");
  }

  @Test
  void skillPage_showsDiagnosticsWithTheirLine_andWhyATwinIsShadowed() throws Exception {
    HttpResponse<String> broken = get("/skills/broken", "Authorization", bearer());
    HttpResponse<String> twin = get("/skills/twin", "Authorization", bearer());
    HttpResponse<String> missing = get("/skills/nothing-like-it", "Authorization", bearer());

    assertThat(broken.body())
        .contains("skipped")
        .containsPattern("broken/SKILL\\.md:6:\\d+")
        .contains("SIBLING_MISSING")
        .contains("Fix: ");
    assertThat(twin.body())
        .contains("The served twin")
        .contains("shadowed")
        .contains("Shadowed by the skill of the same name at")
        .contains(dir.resolve("low/twin/SKILL.md").toString());
    assertThat(missing.statusCode()).isEqualTo(404);
  }

  @Test
  void catalog_filtersOnTheServer_withoutJavaScript() throws Exception {
    HttpResponse<String> all = get("/", "Authorization", bearer());
    HttpResponse<String> skipped = get("/?state=skipped", "Authorization", bearer());
    HttpResponse<String> search = get("/?q=served+twin", "Authorization", bearer());

    assertThat(all.body()).contains(">hostile<", ">broken<", ">twin<");
    assertThat(skipped.body()).contains(">broken<").doesNotContain(">hostile<", ">twin<");
    assertThat(search.body()).contains(">twin<").doesNotContain(">hostile<", ">broken<");
    // The summary names the states in words, not as their wire labels.
    assertThat(all.body())
        .contains(
            "<span class=\"label\">Awaiting dependencies</span>",
            "<span class=\"label\">Skipped</span>")
        .doesNotContain("<span class=\"label\">pending_deps</span>");
  }

  @Test
  void readOnly_otherMethodsAre405_unknownPathsStay404() throws Exception {
    HttpResponse<String> post =
        client.send(
            HttpRequest.newBuilder(base.resolve("/jobs"))
                .header("Authorization", bearer())
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> unknown = get("/wp-admin", "Authorization", bearer());

    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(unknown.statusCode()).isEqualTo(404);
  }

  @Test
  void metrics_withToken_isPrometheusText() throws Exception {
    HttpResponse<String> metrics = get("/metrics", "Authorization", bearer());

    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/plain; version=0.0.4");
    assertThat(metrics.body())
        .contains("# TYPE skillport_catalog_skills gauge")
        .contains("skillport_catalog_skills{state=\"skipped\"} 1.0")
        .contains("skillport_catalog_skills{state=\"shadowed\"} 1.0")
        .contains("skillport_catalog_reloads_total{changed=\"true\"} 1.0")
        .contains("skillport_catalog_reload_duration_seconds_count 1");
  }
}
