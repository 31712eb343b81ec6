package dev.skillport.server.hostile;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Many HTTP/1.1 clients at once on one thread: each opens its own connection, sends one request and
 * reads the response's status line and headers. Non-blocking sockets on one selector, so that ten
 * thousand connections need neither ten thousand threads nor a large machine.
 */
final class Crowd {
  /** What one client saw. */
  enum Outcome {
    /** 200. */
    OK,
    /** 503 with a {@code Retry-After} header. */
    UNAVAILABLE_RETRY_AFTER,
    /** 503 without {@code Retry-After}. */
    UNAVAILABLE_BARE,
    /** Any other status. */
    OTHER_STATUS,
    /** The connection was closed before a full status line and headers arrived. */
    EMPTY_CLOSE,
    /** The connection was reset or refused. */
    RESET,
    /** Nothing arrived before the deadline. */
    UNANSWERED
  }

  private final InetSocketAddress server;
  private final byte[] request;

  Crowd(InetSocketAddress server, byte[] request) {
    this.server = server;
    this.request = request.clone();
  }

  /** Opens {@code clients} connections at once and tallies what each saw within {@code limit}. */
  Map<Outcome, Integer> run(int clients, Duration limit) throws IOException {
    Map<Outcome, Integer> tally = new EnumMap<>(Outcome.class);
    for (Outcome o : Outcome.values()) {
      tally.put(o, 0);
    }
    long deadline = System.nanoTime() + limit.toNanos();
    int pending = clients;
    try (Selector selector = Selector.open()) {
      for (int i = 0; i < clients; i++) {
        SocketChannel channel = SocketChannel.open();
        channel.configureBlocking(false);
        // No lingering in the kernel after close: the test ends its connections at once.
        channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        Client client = new Client(ByteBuffer.wrap(request));
        try {
          if (channel.connect(server)) {
            channel.register(selector, SelectionKey.OP_WRITE, client);
          } else {
            channel.register(selector, SelectionKey.OP_CONNECT, client);
          }
        } catch (IOException e) {
          channel.close();
          tally.merge(Outcome.RESET, 1, Integer::sum);
          pending--;
        }
      }
      while (pending > 0 && System.nanoTime() < deadline) {
        selector.select(100);
        for (SelectionKey key : selector.selectedKeys()) {
          Outcome outcome = step(key);
          if (outcome != null) {
            tally.merge(outcome, 1, Integer::sum);
            pending--;
            key.cancel();
            key.channel().close();
          }
        }
        selector.selectedKeys().clear();
      }
      for (SelectionKey key : selector.keys()) {
        key.channel().close();
      }
    }
    tally.merge(Outcome.UNANSWERED, pending, Integer::sum);
    return tally;
  }

  /** Advances one connection; its outcome once it has one. */
  private static Outcome step(SelectionKey key) {
    Client client = (Client) key.attachment();
    SocketChannel channel = (SocketChannel) key.channel();
    try {
      if (key.isConnectable()) {
        channel.finishConnect();
        key.interestOps(SelectionKey.OP_WRITE);
        return null;
      }
      if (key.isWritable()) {
        channel.write(client.out);
        if (!client.out.hasRemaining()) {
          key.interestOps(SelectionKey.OP_READ);
        }
        return null;
      }
      if (key.isReadable()) {
        int n = channel.read(client.in);
        if (n < 0) {
          return Outcome.EMPTY_CLOSE;
        }
        return client.outcome();
      }
    } catch (IOException e) {
      return Outcome.RESET;
    }
    return null;
  }

  private static final class Client {
    final ByteBuffer out;
    final ByteBuffer in = ByteBuffer.allocate(4096);

    Client(ByteBuffer out) {
      this.out = out;
    }

    /** The outcome once the status line and headers are in; null before. */
    Outcome outcome() {
      String head = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
      int end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        return in.hasRemaining() ? null : Outcome.OTHER_STATUS;
      }
      String[] lines = head.substring(0, end).split("\r\n");
      String[] statusLine = lines[0].split(" ");
      int status = statusLine.length > 1 ? Integer.parseInt(statusLine[1]) : -1;
      if (status == 200) {
        return Outcome.OK;
      }
      if (status != 503) {
        return Outcome.OTHER_STATUS;
      }
      for (int i = 1; i < lines.length; i++) {
        if (lines[i].toLowerCase(Locale.ROOT).startsWith("retry-after:")) {
          return Outcome.UNAVAILABLE_RETRY_AFTER;
        }
      }
      return Outcome.UNAVAILABLE_BARE;
    }
  }
}
