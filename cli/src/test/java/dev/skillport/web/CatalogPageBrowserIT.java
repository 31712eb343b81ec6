package dev.skillport.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in a real headless Chromium (Debian's {@code chromium} and {@code chromedriver}, driven
 * by Selenium) on a server started with {@code bin/skillport} and a token, serving the samples plus
 * a broken skill, a shadowed copy of a sample and a slow job: sign in, search, open skills, see a
 * diagnostic with its line, watch a job go from running to completed without a reload, and see a
 * description holding {@code <script>} as text. Screenshots of the main pages are written to {@code
 * target/screenshots}. Also {@code /metrics}, read by the Prometheus client's own text-format
 * parser (Python), moving with the calls.
 *
 * <p>Without Chromium the test is skipped, unless {@code SKILLPORT_BROWSER_REQUIRED=true} (CI sets
 * it, after installing Chromium), which makes it fail instead.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(180)
class CatalogPageBrowserIT {
  private static final String TOKEN = "browser-test-token-7f3a9c";
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static LaunchedServer server;
  private static URI base;
  private static ChromeDriver browser;
  private static Path screenshots;
  private static Path browserTmp;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws IOException {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present && "true".equals(System.getenv("SKILLPORT_BROWSER_REQUIRED"))) {
      throw new IllegalStateException(
          "Chromium and its driver are required (apt-get install chromium chromium-driver)");
    }
    assumeTrue(present, "Chromium is not installed; the browser test is skipped");
    Path extra = dir.resolve("extra");
    write(
        extra.resolve("slow-job/SKILL.md"),
        """
        ---
        name: slow-job
        description: Runs for a few seconds as a job. <script>alert("x")</script> stays text.
        metadata:
          dcc-mcp:
            tools: tools.yaml
            tags: [demo, jobs]
        ---
        # Slow job

        Sleeps **for a while**, then answers. <b>Raw HTML</b> stays text.
        """);
    write(
        extra.resolve("slow-job/tools.yaml"),
        """
        tools:
          - name: wait_a_bit
            description: Sleeps for the given seconds, then answers.
            execution: async
            input_schema:
              type: object
              properties:
                seconds: {type: number, minimum: 0, maximum: 30, description: How long to sleep.}
                mode: {type: string, enum: [fast, slow]}
              required: [seconds]
        """);
    write(
        extra.resolve("slow-job/scripts/wait_a_bit.py"),
        """
        import json, sys, time
        args = json.load(sys.stdin)
        time.sleep(float(args.get("seconds", 1)))
        print(json.dumps({"success": True, "message": "done"}))
        """);
    write(
        extra.resolve("broken-skill/SKILL.md"),
        """
        ---
        name: broken-skill
        description: A skill whose tools file is missing
        metadata:
          dcc-mcp:
            tools: missing-tools.yaml
        ---
        Broken.
        """);
    write(
        extra.resolve("file-stats/SKILL.md"),
        "---\nname: file-stats\ndescription: A copy shadowed by the sample\n---\nShadowed.\n");
    Path samples =
        Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
    Path home = Files.createDirectories(dir.resolve("home"));
    server =
        LaunchedServer.start(
            home,
            "--skills",
            samples.toString(),
            "--skills",
            extra.toString(),
            "--no-bundled",
            "--auth-token",
            TOKEN);
    base = server.uri().resolve("/");
    screenshots = Files.createDirectories(Path.of("target", "screenshots"));
    Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
    Path browserHome = Files.createDirectories(dir.resolve("chromium-home"));
    // Chromium binds Unix sockets under TMPDIR (.org.chromium.Chromium.XXXXXX/SingletonSocket), and
    // a socket path has at most 107 bytes: under a deep checkout the test folder is too long and
    // Chromium exits while starting. Its temporary files go to a short folder, removed afterwards.
    browserTmp = Files.createTempDirectory(Path.of("/tmp"), "spc");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile,
        "--window-size=1280,900");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            // Chromium writes its certificate store and temporary files here, not the user's.
            .withEnvironment(
                Map.of("HOME", browserHome.toString(), "TMPDIR", browserTmp.toString()))
            .build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
    if (browserTmp != null) {
      try (var files = Files.walk(browserTmp)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      } catch (IOException e) {
        // nothing to remove
      }
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private static WebDriverWait await() {
    return new WebDriverWait(browser, Duration.ofSeconds(20));
  }

  private static void screenshot(String name) throws IOException {
    Files.write(screenshots.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
  }

  private static void open(String path) {
    browser.get(base.resolve(path).toString());
  }

  @Test
  @Order(1)
  void signIn_noToken_showsTheForm_wrongTokenRefused_rightTokenLandsOnTheCatalog()
      throws IOException {
    open("/");
    assertThat(browser.getCurrentUrl()).contains("/login?next=");
    screenshot("01-login");

    browser.findElement(By.id("token")).sendKeys("not-the-token");
    browser.findElement(By.cssSelector("form[action='/login'] button")).click();
    await().until(d -> !d.findElements(By.cssSelector(".problem")).isEmpty());
    assertThat(browser.findElement(By.cssSelector(".problem")).getText())
        .isEqualTo("That token is not accepted.");

    browser.findElement(By.id("token")).sendKeys(TOKEN);
    browser.findElement(By.cssSelector("form[action='/login'] button")).click();
    await().until(d -> d.getCurrentUrl().equals(base.toString()));
    assertThat(browser.getCurrentUrl()).doesNotContain(TOKEN);
    assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Skills");
    assertThat(browser.manage().getCookies())
        .allSatisfy(c -> assertThat(c.getValue()).doesNotContain(TOKEN));
  }

  @Test
  @Order(2)
  void catalog_listsEveryStateAndFiltersAsOneTypes() throws IOException {
    open("/");
    List<String> names =
        browser.findElements(By.cssSelector("li.skill .skill-name")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(names).contains("broken-skill", "slow-job", "image-tools", "file-stats");
    assertThat(names.stream().filter("file-stats"::equals)).hasSize(2);
    assertThat(browser.findElements(By.cssSelector("li.skill.state-shadowed"))).hasSize(1);
    assertThat(browser.findElements(By.cssSelector("li.skill.state-skipped"))).hasSize(1);
    screenshot("02-catalog");

    browser.findElement(By.id("q")).sendKeys("slow-job");
    List<String> visible =
        browser.findElements(By.cssSelector("li.skill")).stream()
            .filter(WebElement::isDisplayed)
            .map(e -> e.findElement(By.cssSelector(".skill-name")).getText())
            .toList();
    assertThat(visible).containsExactly("slow-job");
    assertThat(browser.findElement(By.id("count")).getText()).startsWith("1 of ");

    browser.manage().window().setSize(new Dimension(390, 844));
    open("/");
    screenshot("03-catalog-phone");
    browser.manage().window().setSize(new Dimension(1280, 900));
  }

  @Test
  @Order(3)
  void skillDescriptionHoldingScript_isShownAsText() {
    open("/skills/slow-job");
    String lead = browser.findElement(By.cssSelector("p.lead")).getText();

    assertThat(lead).contains("<script>alert(\"x\")</script>");
    assertThat(browser.findElement(By.cssSelector("article.markdown")).getText())
        .contains("<b>Raw HTML</b> stays text.");
    assertThat(browser.findElements(By.cssSelector("main script, main b"))).isEmpty();
    assertThatThrownBy(() -> browser.switchTo().alert())
        .isInstanceOf(NoAlertPresentException.class);
  }

  @Test
  @Order(4)
  void openingASkill_showsItsToolsAsForms_andADiagnosticWithItsLine() throws IOException {
    open("/");
    browser.findElement(By.linkText("slow-job")).click();
    await().until(d -> d.getCurrentUrl().endsWith("/skills/slow-job"));
    WebElement tool = browser.findElement(By.id("tool-wait_a_bit"));
    assertThat(tool.findElements(By.cssSelector("input[type=number][disabled]"))).hasSize(1);
    assertThat(tool.findElements(By.cssSelector("select option")))
        .extracting(WebElement::getText)
        .containsExactly("fast", "slow");
    assertThat(tool.getText()).contains("seconds", "required", "0 to 30", "How long to sleep.");
    screenshot("04-skill");

    open("/");
    browser.findElement(By.linkText("broken-skill")).click();
    WebElement diagnostic = browser.findElement(By.cssSelector("li.diagnostic.error"));
    assertThat(diagnostic.findElement(By.cssSelector(".where")).getText())
        .endsWith("broken-skill/SKILL.md:6:5");
    assertThat(diagnostic.getText()).contains("SIBLING_MISSING", "Fix: ");
    screenshot("05-skill-diagnostic");

    open("/skills/file-stats");
    assertThat(browser.findElement(By.tagName("main")).getText())
        .contains("Also found", "Shadowed by the skill of the same name at");
  }

  @Test
  @Order(5)
  void jobsPage_followsAJobFromRunningToCompleted_withoutReloading() throws Exception {
    double completedBefore =
        metric(scrape(), "skillport_jobs_finished_total", "state", "completed");
    open("/jobs");
    ((org.openqa.selenium.JavascriptExecutor) browser)
        .executeScript("window.__sameDocument = 'yes';");
    await().until(d -> d.findElement(By.id("live")).getAttribute("class").contains("on"));

    Mcp mcp = Mcp.open(server.uri());
    mcp.call("load_skill", "{\"skill_name\":\"slow-job\"}");
    JsonNode queued = mcp.call("wait_a_bit", "{\"seconds\":2.5}");
    String jobId = queued.at("/result/structuredContent/job_id").asText();
    assertThat(jobId).isNotEmpty();

    By status = By.cssSelector("tr[data-job-id='" + jobId + "'] [data-field=status]");
    await()
        .until(
            d ->
                !d.findElements(status).isEmpty()
                    && d.findElement(status).getText().equals("running"));
    screenshot("06-jobs-running");
    new WebDriverWait(browser, Duration.ofSeconds(30))
        .until(d -> d.findElement(status).getText().equals("completed"));
    screenshot("07-jobs-completed");

    Object same =
        ((org.openqa.selenium.JavascriptExecutor) browser)
            .executeScript("return window.__sameDocument;");
    assertThat(same).isEqualTo("yes");

    // The metrics moved with the calls: load_skill, the queued call and the job's own run.
    String after = scrape();
    assertThat(metric(after, "skillport_jobs_finished_total", "state", "completed"))
        .isEqualTo(completedBefore + 1);
    assertThat(metric(after, "skillport_tool_calls_total", "outcome", "queued"))
        .isGreaterThanOrEqualTo(1);
    assertThat(
            metric(after, "skillport_tool_call_duration_seconds_count", "tool", "wait_a_bit (job)"))
        .isEqualTo(1);
  }

  @Test
  @Order(6)
  void callsAndServerPages_showRecentCallsWithArgumentNamesOnly() throws IOException {
    open("/calls");
    String calls = browser.findElement(By.tagName("main")).getText();
    assertThat(calls).contains("wait_a_bit", "seconds").doesNotContain("2.5");
    screenshot("08-calls");
    open("/server");
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("Host adapters");
    screenshot("09-server");
  }

  @Test
  @Order(7)
  void metrics_parsedByThePrometheusParser_moveAfterCalls() throws Exception {
    String before = scrape();
    Mcp mcp = Mcp.open(server.uri());
    mcp.call("search_skills", "{\"query\":\"image\"}");
    mcp.call("search_skills", "{\"query\":\"files\"}");
    mcp.call("no_such_tool", "{}");
    assertThat(Mcp.modern("server/discover").statusCode()).isEqualTo(200);
    assertThat(Mcp.modern("no/such-method").body()).contains("-32601");
    String after = scrape();

    assertThat(metric(after, "skillport_tool_calls_total", "tool", "search_skills"))
        .isEqualTo(metric(before, "skillport_tool_calls_total", "tool", "search_skills") + 2);
    assertThat(metric(after, "skillport_tool_calls_total", "tool", "(unknown)"))
        .isEqualTo(metric(before, "skillport_tool_calls_total", "tool", "(unknown)") + 1);
    assertThat(metric(after, "skillport_tool_call_duration_seconds_count", "tool", "search_skills"))
        .isEqualTo(
            metric(before, "skillport_tool_call_duration_seconds_count", "tool", "search_skills")
                + 2);
    assertThat(
            metric(after, "skillport_mcp_sessions_opened_total", "protocol_version", "2025-11-25"))
        .isEqualTo(
            metric(before, "skillport_mcp_sessions_opened_total", "protocol_version", "2025-11-25")
                + 1);
    // Requests by era: three tools/call in a 2025 session; server/discover and an unserved
    // method from a stateless 2026-07-28 client, which opens no session to count.
    assertThat(metric(after, "skillport_mcp_requests_total", "method", "tools/call"))
        .isEqualTo(metric(before, "skillport_mcp_requests_total", "method", "tools/call") + 3);
    assertThat(metric(after, "skillport_mcp_requests_total", "method", "server/discover"))
        .isEqualTo(metric(before, "skillport_mcp_requests_total", "method", "server/discover") + 1);
    assertThat(metric(after, "skillport_mcp_requests_total", "era", "modern"))
        .isEqualTo(metric(before, "skillport_mcp_requests_total", "era", "modern") + 2);
    assertThat(metric(after, "skillport_mcp_requests_total", "method", "(unknown)"))
        .isEqualTo(metric(before, "skillport_mcp_requests_total", "method", "(unknown)") + 1);
    assertThat(metric(after, "skillport_catalog_skills", "state", "skipped")).isEqualTo(1);
    assertThat(metric(after, "skillport_catalog_skills", "state", "shadowed")).isEqualTo(1);
    assertThat(metric(after, "skillport_catalog_reloads_total", "changed", "true"))
        .isGreaterThanOrEqualTo(1);
    assertThat(metric(after, "skillport_script_processes_running", null, null)).isZero();
  }

  /** {@code /metrics} with the token. */
  private static String scrape() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(base.resolve("/metrics"))
                .header("Authorization", "Bearer " + TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /**
   * The sum of the samples named {@code name} (with {@code label=value} when given), as the
   * official Prometheus Python client's text-format parser reads {@code text}.
   */
  private static double metric(String text, String name, String label, String value)
      throws IOException {
    Path file = Files.createTempFile(dir, "metrics", ".txt");
    Files.writeString(file, text);
    ExternalCommand.Outcome parsed =
        ExternalCommand.of(
                PYTHON.toString(),
                "-c",
                """
                import json, sys
                from prometheus_client.parser import text_string_to_metric_families
                out = []
                for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                    for s in family.samples:
                        out.append({"name": s.name, "labels": s.labels, "value": s.value})
                print(json.dumps(out))
                """,
                file.toString())
            .timeout(Duration.ofSeconds(30))
            .run();
    assertThat(parsed.exit()).as(parsed.toString()).isZero();
    double sum = 0;
    for (JsonNode sample : JSON.readTree(parsed.stdout())) {
      if (sample.path("name").asText().equals(name)
          && (label == null || sample.path("labels").path(label).asText().equals(value))) {
        sum += sample.path("value").asDouble();
      }
    }
    return sum;
  }

  /** A 2025-era MCP session over HTTP with the token. */
  private record Mcp(URI endpoint, String session) {
    static Mcp open(URI endpoint) throws Exception {
      HttpResponse<String> init =
          post(
              endpoint,
              null,
              "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                  + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                  + "\"clientInfo\":{\"name\":\"browser-it\",\"version\":\"1\"}}}");
      String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      post(endpoint, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      return new Mcp(endpoint, session);
    }

    JsonNode call(String tool, String arguments) throws Exception {
      ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1);
      request.put("method", "tools/call");
      request.putObject("params").put("name", tool).set("arguments", JSON.readTree(arguments));
      return JSON.readTree(post(endpoint, session, request.toString()).body());
    }

    /** One stateless 2026-07-28 request with no parameters but its {@code _meta}. */
    static HttpResponse<String> modern(String method) throws Exception {
      String body =
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\""
              + method
              + "\",\"params\":{\"_meta\":{"
              + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
              + "\"io.modelcontextprotocol/clientCapabilities\":{},"
              + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"browser-it\",\"version\":\"1\"}}}}";
      return HTTP.send(
          HttpRequest.newBuilder(server.uri())
              .header("Authorization", "Bearer " + TOKEN)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .header("MCP-Protocol-Version", "2026-07-28")
              .header("Mcp-Method", method)
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(URI endpoint, String session, String body)
        throws Exception {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(endpoint)
              .header("Authorization", "Bearer " + TOKEN)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
      return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
  }
}
