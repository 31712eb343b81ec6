package dev.skillport.cli;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * How log lines on stderr are written: {@code text} for people, {@code json} (one object a line,
 * logback's own {@link JsonEncoder}) for log collectors. Either way every line is redacted.
 */
enum LogFormat {
  /** {@code HH:mm:ss.SSS LEVEL [thread] logger - message}. */
  TEXT {
    @Override
    Encoder<ILoggingEvent> encoder(Context context) {
      RedactingLayout layout =
          new RedactingLayout(StderrLogConfigurator.PATTERN, LogRedaction.of(context));
      layout.setContext(context);
      layout.start();
      LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
      encoder.setContext(context);
      encoder.setLayout(layout);
      encoder.start();
      return encoder;
    }
  },

  /** One JSON object a line: timestamp, level, thread, logger, message, arguments, throwable. */
  JSON {
    @Override
    Encoder<ILoggingEvent> encoder(Context context) {
      JsonEncoder encoder = new RedactingJsonEncoder(LogRedaction.of(context));
      encoder.setContext(context);
      // The message as written, beside the pattern and its arguments; the context adds nothing.
      encoder.setWithFormattedMessage(true);
      encoder.setWithContext(false);
      encoder.setWithSequenceNumber(false);
      encoder.start();
      return encoder;
    }
  };

  /** A started encoder of this format. */
  abstract Encoder<ILoggingEvent> encoder(Context context);

  /** The property first, then the environment variable; absent or unknown reads as text. */
  static LogFormat of(String property, Map<String, String> env) {
    String name = property != null ? property : env.get("SKILLPORT_LOG_FORMAT");
    return name != null && name.strip().toLowerCase(Locale.ROOT).equals("json") ? JSON : TEXT;
  }

  /**
   * Logback's JSON encoder with the finished line passed through the {@link LogRedaction}: a secret
   * in the message, an argument or a stack trace is masked wherever it stands in the object.
   */
  private static final class RedactingJsonEncoder extends JsonEncoder {
    private final LogRedaction redaction;

    RedactingJsonEncoder(LogRedaction redaction) {
      this.redaction = redaction;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
      String line = new String(super.encode(event), StandardCharsets.UTF_8);
      return redaction.text(line).getBytes(StandardCharsets.UTF_8);
    }
  }
}
