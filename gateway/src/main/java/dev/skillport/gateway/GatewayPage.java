package dev.skillport.gateway;

import dev.skillport.mcp.transport.HttpRoutes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The gateway's own paths beside its MCP endpoint: {@code /}, a page that lists the instances
 * (health, host product, skills, last heartbeat, requests routed and in flight), and {@code
 * /metrics} ({@link GatewayMetrics}). Both need the gateway's token when it takes one.
 */
public final class GatewayPage implements HttpRoutes {
  private final Gateway gateway;
  private final Clock clock;

  public GatewayPage(Gateway gateway, Clock clock) {
    this.gateway = gateway;
    this.clock = clock;
  }

  @Override
  public boolean handle(
      Request request, Response response, Callback callback, Credentials credentials) {
    String path = Request.getPathInContext(request);
    if (!path.equals("/") && !path.equals("/metrics")) {
      return false;
    }
    if (credentials.required() && !credentials.presentedBy(request)) {
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
      write(response, callback, 401, "text/plain; charset=utf-8", "a valid token is required\n");
      return true;
    }
    if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      write(response, callback, 405, "text/plain; charset=utf-8", "read-only\n");
      return true;
    }
    if (path.equals("/metrics")) {
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, gateway.metrics().contentType());
      response.write(true, ByteBuffer.wrap(gateway.metrics().scrape()), callback);
    } else {
      write(response, callback, 200, "text/html; charset=utf-8", html());
    }
    return true;
  }

  /** The page: one row per instance the gateway routes to. */
  String html() {
    StringBuilder out = new StringBuilder(4096);
    out.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Skillport gateway</title>")
        .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}")
        .append(".up{color:#060}.missing{color:#a60}</style></head><body>\n")
        .append("<h1>Skillport gateway</h1>\n");
    List<InstanceEntry> instances =
        gateway.registered().values().stream()
            .sorted(Comparator.comparing(InstanceEntry::id))
            .toList();
    out.append("<p>")
        .append(instances.size())
        .append(instances.size() == 1 ? " instance" : " instances")
        .append("; <a href=\"/metrics\">metrics</a></p>\n");
    out.append("<table id=\"instances\"><thead><tr><th>Instance</th><th>Health</th><th>DCC</th>")
        .append("<th>Skills</th><th>Last heartbeat</th><th>Routed requests</th>")
        .append("<th>In flight</th><th>URL</th><th>Version</th></tr></thead><tbody>\n");
    CapabilityIndex index = gateway.index();
    for (InstanceEntry e : instances) {
      InstanceCatalog catalog = index.catalogs().get(e.id());
      String state = gateway.state(e.id());
      Duration ago = Duration.between(e.heartbeat(), clock.instant());
      out.append("<tr data-instance=\"")
          .append(escape(e.id()))
          .append("\"><td>")
          .append(escape(e.id()))
          .append("</td><td class=\"")
          .append(state)
          .append("\">")
          .append(state)
          .append(gateway.misses(e.id()) > 0 ? " (" + gateway.misses(e.id()) + " missed)" : "")
          .append("</td><td>")
          .append(escape(e.dcc()))
          .append(e.dccVersion() == null ? "" : " " + escape(e.dccVersion()))
          .append("</td><td>")
          .append(catalog == null ? "not indexed yet" : String.valueOf(catalog.skills().size()))
          .append("</td><td>")
          .append(escape(e.heartbeat().toString()))
          .append(" (")
          .append(Math.max(0, ago.toSeconds()))
          .append(" s ago)</td><td>")
          .append(gateway.metrics().routedTo(e.id()))
          .append("</td><td>")
          .append(gateway.inFlight(e.id()))
          .append("</td><td>")
          .append(escape(e.url().toString()))
          .append("</td><td>")
          .append(escape(e.skillportVersion()))
          .append("</td></tr>\n");
    }
    out.append("</tbody></table>\n</body></html>\n");
    return out.toString();
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static void write(
      Response response, Callback callback, int status, String type, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
  }
}
