package dev.skillport.mcp.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * Reads who a request came from and whether it arrived over TLS when a proxy the operator trusts
 * passed it on: {@code Forwarded} (RFC 7239, {@code for=} and {@code proto=}), else {@code
 * X-Forwarded-For} and {@code X-Forwarded-Proto}. From any other peer these headers are ignored.
 *
 * <p>The client is the address nearest the server that is not itself a trusted proxy, read from the
 * right of the list (each proxy appends the peer it saw), so a client cannot pick its own address
 * by sending a forged header ahead of the proxy's. Jetty's own {@code ForwardedRequestCustomizer}
 * takes the leftmost value and trusts every peer, which would let any client choose the address
 * that the login limits count against.
 *
 * <p>As a Jetty customizer it wraps the request: {@link Request#isSecure()} and the connection's
 * remote address then answer for the client, for every handler.
 */
final class TrustedProxies implements HttpConfiguration.Customizer {
  private final List<AddressBlock> blocks;

  TrustedProxies(List<AddressBlock> blocks) {
    this.blocks = List.copyOf(blocks);
  }

  /** Who sent a request and whether it reached the first trusted proxy over TLS. */
  record Origin(InetAddress client, boolean https) {}

  boolean trusted(InetAddress address) {
    for (AddressBlock block : blocks) {
      if (block.contains(address)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Request customize(Request request, HttpFields.Mutable responseHeaders) {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
      return request;
    }
    Origin origin = origin(inet.getAddress(), request.getHeaders());
    if (origin.client().equals(inet.getAddress()) && !origin.https()) {
      return request;
    }
    InetSocketAddress client = new InetSocketAddress(origin.client(), 0);
    boolean secure = origin.https() || request.isSecure();
    ConnectionMetaData meta =
        new ConnectionMetaData.Wrapper(request.getConnectionMetaData()) {
          @Override
          public SocketAddress getRemoteSocketAddress() {
            return client;
          }

          @Override
          public boolean isSecure() {
            return secure;
          }
        };
    return new Request.Wrapper(request) {
      @Override
      public ConnectionMetaData getConnectionMetaData() {
        return meta;
      }

      @Override
      public boolean isSecure() {
        return secure;
      }
    };
  }

  /** The request's origin as {@code peer}, the address connected to the server, reports it. */
  Origin origin(InetAddress peer, HttpFields headers) {
    if (!trusted(peer)) {
      return new Origin(peer, false);
    }
    List<String> forwarded = headers.getValuesList("Forwarded");
    if (!forwarded.isEmpty()) {
      List<Map<String, String>> hops = forwardedElements(forwarded);
      if (hops == null) {
        return new Origin(peer, false);
      }
      InetAddress client = peer;
      String proto = null;
      for (int i = hops.size() - 1; i >= 0; i--) {
        Map<String, String> hop = hops.get(i);
        proto = hop.get("proto");
        Optional<InetAddress> seen = node(hop.get("for"));
        if (seen.isEmpty()) {
          break;
        }
        client = seen.get();
        if (!trusted(client)) {
          break;
        }
      }
      return new Origin(client, "https".equalsIgnoreCase(proto));
    }
    List<String> chain = commaList(headers.getValuesList("X-Forwarded-For"));
    List<String> protos = commaList(headers.getValuesList("X-Forwarded-Proto"));
    InetAddress client = peer;
    int hop = -1;
    for (int i = chain.size() - 1; i >= 0; i--) {
      Optional<InetAddress> seen = node(chain.get(i));
      if (seen.isEmpty()) {
        break;
      }
      client = seen.get();
      hop = i;
      if (!trusted(client)) {
        break;
      }
    }
    String proto = null;
    if (!protos.isEmpty()) {
      // Proxies that append to both lists keep them aligned; one that sets the header alone
      // leaves a single value, its own.
      proto =
          protos.size() == chain.size() && hop >= 0
              ? protos.get(hop)
              : protos.get(protos.size() - 1);
    }
    return new Origin(client, "https".equalsIgnoreCase(proto));
  }

  /**
   * The address of a {@code for=} or {@code X-Forwarded-For} node ({@code 192.0.2.1}, {@code
   * 192.0.2.1:4711}, {@code [2001:db8::1]:4711}, {@code 2001:db8::1}); empty for {@code unknown},
   * an obfuscated name or anything else.
   */
  static Optional<InetAddress> node(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String s = value.strip();
    if (s.startsWith("[")) {
      int end = s.indexOf(']');
      if (end < 0) {
        return Optional.empty();
      }
      String rest = s.substring(end + 1);
      if (!rest.isEmpty() && !(rest.startsWith(":") && isPort(rest.substring(1)))) {
        return Optional.empty();
      }
      s = s.substring(1, end);
    } else {
      int colon = s.indexOf(':');
      if (colon >= 0 && colon == s.lastIndexOf(':')) {
        if (!isPort(s.substring(colon + 1))) {
          return Optional.empty();
        }
        s = s.substring(0, colon);
      }
    }
    return AddressBlock.literal(s);
  }

  private static boolean isPort(String s) {
    return !s.isEmpty() && s.length() <= 5 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static List<String> commaList(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      for (String part : line.split(",")) {
        if (!part.isBlank()) {
          out.add(part.strip());
        }
      }
    }
    return out;
  }

  /**
   * The elements of {@code Forwarded} header lines, each a map of lower-case parameter names to
   * values (quotes and escapes removed); null when the syntax is broken.
   */
  static List<Map<String, String>> forwardedElements(List<String> lines) {
    List<Map<String, String>> elements = new ArrayList<>();
    for (String line : lines) {
      Map<String, String> element = new HashMap<>();
      int i = 0;
      int n = line.length();
      while (i <= n) {
        while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
          i++;
        }
        if (i == n || line.charAt(i) == ',' || line.charAt(i) == ';') {
          if (i == n || line.charAt(i) == ',') {
            if (!element.isEmpty()) {
              elements.add(element);
            }
            element = new HashMap<>();
          }
          if (i == n) {
            break;
          }
          i++;
          continue;
        }
        int eq = line.indexOf('=', i);
        if (eq < 0) {
          return null;
        }
        String name = line.substring(i, eq).strip().toLowerCase(Locale.ROOT);
        if (name.isEmpty() || !isToken(name)) {
          return null;
        }
        i = eq + 1;
        StringBuilder value = new StringBuilder();
        if (i < n && line.charAt(i) == '"') {
          i++;
          boolean closed = false;
          while (i < n) {
            char c = line.charAt(i++);
            if (c == '\\' && i < n) {
              value.append(line.charAt(i++));
            } else if (c == '"') {
              closed = true;
              break;
            } else {
              value.append(c);
            }
          }
          if (!closed) {
            return null;
          }
        } else {
          while (i < n && line.charAt(i) != ';' && line.charAt(i) != ',') {
            value.append(line.charAt(i++));
          }
          if (!isToken(value.toString().strip())) {
            return null;
          }
        }
        // A repeated parameter in one element is invalid (RFC 7239, section 4).
        if (element.put(name, value.toString().strip()) != null) {
          return null;
        }
      }
    }
    return elements;
  }

  private static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
