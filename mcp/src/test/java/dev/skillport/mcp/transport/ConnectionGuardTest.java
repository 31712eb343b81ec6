package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.junit.jupiter.api.Test;

class ConnectionGuardTest {
  private static final int CAP = 20;
  private static final int NEWCOMERS = 8;

  private final AtomicInteger closed = new AtomicInteger();

  /** A connection that has sent part of a request, whose end point only counts being closed. */
  private Connection connection() {
    return connection(10);
  }

  /** A connection that has sent {@code bytesIn} bytes, whose end point counts being closed. */
  private Connection connection(long bytesIn) {
    EndPoint endPoint =
        (EndPoint)
            Proxy.newProxyInstance(
                EndPoint.class.getClassLoader(),
                new Class<?>[] {EndPoint.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "close" -> {
                        closed.incrementAndGet();
                        yield null;
                      }
                      case "hashCode" -> System.identityHashCode(proxy);
                      case "equals" -> proxy == args[0];
                      default -> null;
                    });
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getEndPoint" -> endPoint;
                  case "getBytesIn" -> bytesIn;
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> null;
                });
  }

  @Test
  void connectionsOpeningTogetherPastTheCap_eachClosesOneOther_andTheCapHolds() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(NEWCOMERS);
    try {
      for (int round = 0; round < 300; round++) {
        ConnectionGuard guard = new ConnectionGuard(CAP, Duration.ofSeconds(10));
        closed.set(0);
        for (int i = 0; i < CAP; i++) {
          guard.onOpened(connection());
        }
        CyclicBarrier together = new CyclicBarrier(NEWCOMERS);
        List<Future<?>> opening = new ArrayList<>();
        for (int i = 0; i < NEWCOMERS; i++) {
          Connection newcomer = connection();
          opening.add(
              pool.submit(
                  () -> {
                    together.await();
                    guard.onOpened(newcomer);
                    return null;
                  }));
        }
        for (Future<?> f : opening) {
          f.get();
        }
        assertThat(guard.openConnections()).as("open after round %d", round).isEqualTo(CAP);
        assertThat(closed.get()).as("closed in round %d", round).isEqualTo(NEWCOMERS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void newcomersPastTheCap_othersJustOpenedAndSilent_areKeptToBeAnswered() {
    ConnectionGuard guard = new ConnectionGuard(CAP, Duration.ofSeconds(10));
    // Just accepted, nothing read yet: on a busy server, clients about to be answered.
    for (int i = 0; i < CAP; i++) {
      guard.onOpened(connection(0));
    }
    List<Connection> newcomers = new ArrayList<>();
    for (int i = 0; i < ConnectionGuard.OVERFLOW; i++) {
      Connection c = connection(0);
      newcomers.add(c);
      guard.onOpened(c);
    }

    assertThat(closed.get()).as("no connection closed unanswered").isZero();
    assertThat(guard.openConnections()).isEqualTo(CAP + ConnectionGuard.OVERFLOW);
  }
}
