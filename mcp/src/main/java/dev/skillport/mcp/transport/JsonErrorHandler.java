package dev.skillport.mcp.transport;

import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.ErrorMapper;
import dev.skillport.mcp.McpException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to what Jetty refuses before any handler runs (headers too large → 431, a request line
 * it cannot parse → 400, a URI too long → 414, ...): a JSON-RPC error without an id, like every
 * other refusal of the endpoint, instead of Jetty's HTML page. It names the status only, never
 * echoing what the client sent.
 */
final class JsonErrorHandler extends ErrorHandler {
  private static final HttpField JSON = new HttpField(HttpHeader.CONTENT_TYPE, "application/json");

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    response.getHeaders().put(JSON);
    response.write(true, ByteBuffer.wrap(body(code)), callback);
  }

  /** A JSON-RPC error for an HTTP status: -32600 for a client's fault, -32603 for the server's. */
  static byte[] body(int status) {
    String reason = HttpStatus.getMessage(status);
    ErrorKind kind = status >= 500 ? ErrorKind.INTERNAL_ERROR : ErrorKind.INVALID_REQUEST;
    return ErrorMapper.toResponse(null, new McpException(kind, status + " " + reason))
        .toString()
        .getBytes(StandardCharsets.UTF_8);
  }
}
