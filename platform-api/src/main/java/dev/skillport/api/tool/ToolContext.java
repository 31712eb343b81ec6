package dev.skillport.api.tool;

/**
 * What a running tool may ask of the platform. Implementations are thread-safe; every method may be
 * called from any thread while the call runs.
 */
public interface ToolContext {

  /**
   * Reports progress. Sent to the client only when it asked for progress; otherwise a no-op.
   *
   * @param total the total, or {@code null} when unknown
   * @param message a short status, or {@code null}
   */
  void progress(double progress, Double total, String message);

  /** Logs a message to the client at {@code level} (debug, info, warning, error…). */
  void log(String level, String message);

  /** Whether the client cancelled the call; long-running handlers check it. */
  boolean isCancelled();

  /** A context that reports nowhere and is never cancelled. */
  ToolContext NONE =
      new ToolContext() {
        @Override
        public void progress(double progress, Double total, String message) {}

        @Override
        public void log(String level, String message) {}

        @Override
        public boolean isCancelled() {
          return false;
        }
      };
}
