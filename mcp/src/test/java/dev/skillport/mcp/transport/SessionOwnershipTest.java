package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.owner.Principal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A session belongs to the token that opened it: every request that names it (POST, GET stream, GET
 * with Last-Event-ID, DELETE) with another token answers exactly as an unknown session does, and
 * the session goes on working for its owner.
 */
class SessionOwnershipTest {
  private static final String V = "2025-11-25";
  private static final String A = "alice-token-0123456789";
  private static final String B = "bob-token-9876543210";
  private static final String OPS = "operator-token-5555555";
  private static final String UNKNOWN = "0123456789abcdef0123456789abcdef";
  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";

  private EchoApplication app;
  private StreamableHttpTransport transport;
  private HttpTestClient client;

  @BeforeEach
  void start() throws Exception {
    app = new EchoApplication();
    transport =
        StreamableHttpTransport.builder(app.server)
            .host("127.0.0.1")
            .port(0)
            .authTokens(List.of(A, B))
            .adminTokens(List.of(OPS))
            .build();
    transport.start();
    client = new HttpTestClient(transport.uri());
  }

  @AfterEach
  void stop() throws Exception {
    transport.close();
    app.server.close();
  }

  private String open(String token) throws Exception {
    HttpResponse<String> init =
        client.post(String.format(HttpTestClient.INIT, V), Map.of("Authorization", bearer(token)));
    assertThat(init.statusCode()).isEqualTo(200);
    return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private static String bearer(String token) {
    return "Bearer " + token;
  }

  private HttpResponse<String> post(String token, String session) throws Exception {
    return client.post(PING, Map.of("Authorization", bearer(token), "Mcp-Session-Id", session));
  }

  private HttpResponse<String> get(String token, String session, String lastEventId)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(transport.uri())
            .header("Accept", "text/event-stream")
            .header("Authorization", bearer(token))
            .header("Mcp-Session-Id", session)
            .GET();
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    return client.send(request);
  }

  private HttpResponse<String> delete(String token, String session) throws Exception {
    return client.send(
        HttpRequest.newBuilder(transport.uri())
            .header("Authorization", bearer(token))
            .header("Mcp-Session-Id", session)
            .DELETE());
  }

  private static void assertSameAnswer(HttpResponse<String> theirs, HttpResponse<String> none) {
    assertThat(theirs.statusCode()).isEqualTo(404);
    assertThat(theirs.statusCode()).isEqualTo(none.statusCode());
    assertThat(theirs.body()).isEqualTo(none.body());
  }

  @Test
  void everyRequestNamingASession_withAnotherToken_answersAsAnUnknownSession() throws Exception {
    String alices = open(A);

    assertSameAnswer(post(B, alices), post(B, UNKNOWN));
    assertSameAnswer(get(B, alices, null), get(B, UNKNOWN, null));
    assertSameAnswer(get(B, alices, "1"), get(B, UNKNOWN, "1"));
    assertSameAnswer(delete(B, alices), delete(B, UNKNOWN));
    assertSameAnswer(post(OPS, alices), post(OPS, UNKNOWN));

    assertThat(post(A, alices).statusCode()).isEqualTo(200);
    assertThat(app.sessions).hasSize(1);
  }

  @Test
  void sessionOwner_isTheOpeningToken_andAnAdminTokenIsAnOperator() throws Exception {
    open(B);
    open(OPS);

    Principal bob = app.sessions.get(0).owner().identity();
    Principal operator = app.sessions.get(1).owner().identity();

    assertThat(bob.name()).startsWith("token:");
    assertThat(bob.operator()).isFalse();
    assertThat(operator.operator()).isTrue();
    assertThat(operator.name()).isNotEqualTo(bob.name());
    assertThat(bob.name()).doesNotContain(B);
  }

  @Test
  void delete_byItsOwner_endsTheSession() throws Exception {
    String alices = open(A);

    HttpResponse<String> deleted = delete(A, alices);

    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(post(A, alices).statusCode()).isEqualTo(404);
  }
}
