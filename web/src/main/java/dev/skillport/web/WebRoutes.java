package dev.skillport.web;

import dev.skillport.api.owner.Principal;
import dev.skillport.mcp.transport.HttpRoutes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The page's paths on the MCP server's port: the catalog ({@code /}), a skill ({@code
 * /skills/NAME}), jobs and workflow runs ({@code /jobs}, live through {@code /events}), recent
 * calls and per-tool metrics ({@code /calls}), the server ({@code /server}), {@code /metrics}, the
 * login form, and the page's own style and script ({@code /static/…}).
 *
 * <p>Read-only. When the server takes a token, every path but the login form and the static files
 * needs it, exactly as {@code /mcp} does: as a header, or through the cookie the login form sets
 * (never in a URL). A page without it redirects to the login form; {@code /metrics} and {@code
 * /events} answer 401. Every response carries a Content-Security-Policy that allows this origin's
 * own style and script only, no inline script, no frames.
 */
public final class WebRoutes implements HttpRoutes, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebRoutes.class);
  static final String CSP =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
  private static final int MAX_FORM_BYTES = 8192;
  private static final Pattern SAFE_NEXT = Pattern.compile("/(?!/)[A-Za-z0-9/_.~%-]*(#[\\w-]*)?");

  private final CatalogViews views;
  private final String instance;
  private final Templates templates = new Templates();
  private final MetricsExposition metrics;
  private final PageSessions sessions;
  private final LiveEvents live;
  private final Map<String, byte[]> assets = new HashMap<>();

  /** Routes over {@code sources}, with {@code metrics} at {@code /metrics}. */
  public WebRoutes(SiteSources sources, MetricsExposition metrics) {
    this(sources, metrics, Clock.systemUTC());
  }

  WebRoutes(SiteSources sources, MetricsExposition metrics, Clock clock) {
    this.views = new CatalogViews(sources);
    this.instance = sources.instance();
    this.metrics = metrics;
    this.sessions = new PageSessions(clock);
    this.live = new LiveEvents(views, sources.seesRun());
    for (String asset : List.of("app.css", "app.js")) {
      assets.put(asset, asset(asset));
    }
  }

  /** The receiver of job changes, for the live jobs page. */
  public void onJob(dev.skillport.runtime.jobs.JobRecord job) {
    live.job(job);
  }

  /** The receiver of workflow-run changes, for the live jobs page. */
  public void onRun(com.fasterxml.jackson.databind.JsonNode update) {
    live.run(update);
  }

  @Override
  public boolean handle(
      Request request, Response response, Callback callback, Credentials credentials) {
    String path = Request.getPathInContext(request);
    String method = request.getMethod();
    boolean get = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
    secure(response);
    if (path.startsWith("/static/") && get) {
      return serveAsset(path.substring("/static/".length()), response, callback);
    }
    if (path.equals("/login")) {
      if (HttpMethod.POST.is(method)) {
        login(request, response, callback, credentials);
      } else {
        page(response, callback, 200, "login", model("Sign in", "", request, credentials));
      }
      return true;
    }
    if (path.equals("/logout") && HttpMethod.POST.is(method)) {
      sessions.close(cookie(request).orElse(null));
      response.getHeaders().put(HttpHeader.SET_COOKIE, expiredCookie(request));
      redirect(response, callback, "/login");
      return true;
    }
    if (!isKnown(path)) {
      return false;
    }
    HttpRoutes.Attempt header =
        credentials.required() ? credentials.attempt(request) : HttpRoutes.Attempt.ACCEPTED;
    if (header.result() == HttpRoutes.Attempt.Result.LIMITED) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, header.retryAfterSeconds());
      text(response, callback, 429, "text/plain; charset=utf-8", "too many wrong tokens\n");
      return true;
    }
    if (!allowed(request, credentials, header)) {
      if (path.equals("/metrics") || path.equals("/events") || !get) {
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        text(response, callback, 401, "text/plain; charset=utf-8", "a valid token is required\n");
      } else {
        redirect(
            response,
            callback,
            "/login?next=" + URLEncoder.encode(pathAndQuery(request), StandardCharsets.UTF_8));
      }
      return true;
    }
    if (!get) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      text(response, callback, 405, "text/plain; charset=utf-8", "the page is read-only\n");
      return true;
    }
    serve(path, request, response, callback, credentials);
    return true;
  }

  private static boolean isKnown(String path) {
    return switch (path) {
      case "/", "/jobs", "/calls", "/server", "/events", "/metrics" -> true;
      default -> path.startsWith("/skills/") && path.length() > "/skills/".length();
    };
  }

  private void serve(
      String path, Request request, Response response, Callback callback, Credentials creds) {
    Fields query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
    switch (path) {
      case "/" -> {
        Map<String, Object> model = model("Skills", "catalog", request, creds);
        model.put(
            "page",
            views.catalog(
                query.getValue("q"),
                query.getValue("state"),
                query.getValue("scope"),
                query.getValue("dcc"),
                query.getValue("tag")));
        page(response, callback, 200, "catalog", model);
      }
      case "/jobs" -> {
        Map<String, Object> model = model("Jobs and workflow runs", "jobs", request, creds);
        model.put("page", views.jobs(viewer(request, creds)));
        page(response, callback, 200, "jobs", model);
      }
      case "/calls" -> {
        Map<String, Object> model = model("Recent calls", "calls", request, creds);
        model.put("page", views.calls(viewer(request, creds)));
        page(response, callback, 200, "calls", model);
      }
      case "/server" -> {
        Map<String, Object> model = model("Server", "server", request, creds);
        model.put("page", views.server());
        page(response, callback, 200, "server", model);
      }
      case "/events" -> events(request, response, callback, viewer(request, creds));
      case "/metrics" -> {
        byte[] body = metrics.scrape();
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, metrics.contentType());
        response.write(true, ByteBuffer.wrap(body), callback);
      }
      default -> {
        String name =
            URLDecoder.decode(
                path.substring("/skills/".length()).replace("+", "%2B"), StandardCharsets.UTF_8);
        Optional<CatalogViews.SkillPage> skill = views.skill(name);
        if (skill.isPresent()) {
          Map<String, Object> model = model(name, "catalog", request, creds);
          model.put("skill", skill.get());
          page(response, callback, 200, "skill", model);
        } else {
          Map<String, Object> model = model("Not found", "catalog", request, creds);
          model.put("missing", name);
          page(response, callback, 404, "notfound", model);
        }
      }
    }
  }

  private void events(Request request, Response response, Callback callback, Principal viewer) {
    EventStream[] holder = new EventStream[1];
    EventStream stream = new EventStream(response, callback, () -> live.remove(holder[0]), viewer);
    holder[0] = stream;
    if (!live.add(stream)) {
      text(response, callback, 503, "text/plain; charset=utf-8", "too many live pages open\n");
      return;
    }
    request.addFailureListener(failure -> stream.end());
    stream.open();
  }

  private void login(Request request, Response response, Callback callback, Credentials creds) {
    long length = request.getLength();
    if (length > MAX_FORM_BYTES) {
      text(response, callback, 413, "text/plain; charset=utf-8", "form too large\n");
      return;
    }
    Content.Source.asByteArrayAsync(
        request,
        MAX_FORM_BYTES,
        Promise.Invocable.from(
            Invocable.InvocationType.BLOCKING,
            (byte[] body, Throwable failure) -> {
              if (failure != null) {
                text(response, callback, 413, "text/plain; charset=utf-8", "form too large\n");
                return;
              }
              try {
                loginWith(form(body), request, response, callback, creds);
              } catch (RuntimeException e) {
                LOG.error("login failed unexpectedly", e);
                Response.writeError(request, response, callback, 500);
              }
            }));
  }

  private void loginWith(
      Map<String, String> form,
      Request request,
      Response response,
      Callback callback,
      Credentials creds) {
    String next = form.getOrDefault("next", "/");
    if (!SAFE_NEXT.matcher(next).matches()) {
      next = "/";
    }
    if (!creds.required()) {
      redirect(response, callback, next);
      return;
    }
    HttpRoutes.Attempt attempt = creds.attempt(request, form.getOrDefault("token", ""));
    if (attempt.result() == HttpRoutes.Attempt.Result.LIMITED) {
      Map<String, Object> model = model("Sign in", "", request, creds);
      model.put("problem", "Too many wrong tokens from this address; wait and try again.");
      model.put("next", next);
      response.getHeaders().put(HttpHeader.RETRY_AFTER, attempt.retryAfterSeconds());
      page(response, callback, 429, "login", model);
      return;
    }
    if (attempt.result() != HttpRoutes.Attempt.Result.ACCEPTED) {
      Map<String, Object> model = model("Sign in", "", request, creds);
      model.put("problem", "That token is not accepted.");
      model.put("next", next);
      page(response, callback, 401, "login", model);
      return;
    }
    String id = sessions.open(creds.identify(form.getOrDefault("token", "")).orElseThrow());
    // Secure over TLS, here or at a proxy trusted with --trusted-proxy (the transport's customizer
    // makes isSecure() answer for the client's side of such a proxy).
    HttpCookie cookie =
        HttpCookie.build(PageSessions.COOKIE, id)
            .path("/")
            .httpOnly(true)
            .secure(request.isSecure())
            .sameSite(HttpCookie.SameSite.STRICT)
            .maxAge(PageSessions.LIFETIME.toSeconds())
            .build();
    Response.addCookie(response, cookie);
    redirect(response, callback, next);
  }

  private boolean allowed(Request request, Credentials creds, HttpRoutes.Attempt header) {
    return !creds.required()
        || header.result() == HttpRoutes.Attempt.Result.ACCEPTED
        || sessions.valid(cookie(request).orElse(null));
  }

  /**
   * Who is looking at the page: the token the request presents, else the one signed in with its
   * cookie; the local caller where the server takes no tokens.
   */
  private Principal viewer(Request request, Credentials creds) {
    if (!creds.required() || creds.presentedBy(request)) {
      return creds.caller(request);
    }
    return cookie(request).flatMap(sessions::who).orElse(Principal.LOCAL);
  }

  private static Optional<String> cookie(Request request) {
    List<HttpCookie> cookies = Request.getCookies(request);
    for (HttpCookie c : cookies) {
      if (c.getName().equals(PageSessions.COOKIE)) {
        return Optional.of(c.getValue());
      }
    }
    return Optional.empty();
  }

  private static String expiredCookie(Request request) {
    return PageSessions.COOKIE
        + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
        + (request.isSecure() ? "; Secure" : "");
  }

  private Map<String, Object> model(
      String title, String section, Request request, Credentials creds) {
    Map<String, Object> model = new HashMap<>();
    model.put("title", title);
    model.put("section", section);
    model.put("signedIn", creds.required() && cookie(request).map(sessions::valid).orElse(false));
    model.put("problem", "");
    String next = Request.extractQueryParameters(request, StandardCharsets.UTF_8).getValue("next");
    model.put("next", next != null && SAFE_NEXT.matcher(next).matches() ? next : "/");
    model.put("tokenRequired", creds.required());
    model.put("instance", instance == null ? "" : instance);
    return model;
  }

  private void page(
      Response response,
      Callback callback,
      int status,
      String template,
      Map<String, Object> model) {
    String html = templates.render(template, model);
    text(response, callback, status, "text/html; charset=utf-8", html);
  }

  private boolean serveAsset(String name, Response response, Callback callback) {
    byte[] body = assets.get(name);
    if (body == null) {
      return false;
    }
    response.setStatus(200);
    response
        .getHeaders()
        .put(
            HttpHeader.CONTENT_TYPE,
            name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  /** The page's own stylesheet or script, as bytes. */
  static byte[] asset(String name) {
    try (InputStream in =
        WebRoutes.class.getResourceAsStream("/dev/skillport/web/static/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing page asset " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read page asset " + name, e);
    }
  }

  private static void secure(Response response) {
    response.getHeaders().put("Content-Security-Policy", CSP);
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" on the
    // login form's POST, which the transport's Origin check refuses.
    response.getHeaders().put("Referrer-Policy", "same-origin");
    response.getHeaders().put("X-Frame-Options", "DENY");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
  }

  private static void redirect(Response response, Callback callback, String location) {
    response.setStatus(303);
    response.getHeaders().put(HttpHeader.LOCATION, location);
    response.write(true, BufferUtil.EMPTY_BUFFER, callback);
  }

  private static void text(
      Response response, Callback callback, int status, String type, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
  }

  private static String pathAndQuery(Request request) {
    String query = request.getHttpURI().getQuery();
    return Request.getPathInContext(request) + (query == null ? "" : "?" + query);
  }

  private static Map<String, String> form(byte[] body) {
    Map<String, String> out = new HashMap<>();
    for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.putIfAbsent(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Ends the live pages' event streams (before the HTTP server stops). */
  @Override
  public void close() {
    live.close();
  }
}
