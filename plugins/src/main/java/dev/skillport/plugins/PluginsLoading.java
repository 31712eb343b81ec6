package dev.skillport.plugins;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Plugins loading on a thread of their own while a server builds the rest (its stores, its
 * execution): the catalog, which reads the skills plugins ship and binds their handlers, can start
 * as soon as both are done. Closing it closes the plugins once they are loaded, so a start that
 * fails before the server takes them leaves no adapter running.
 */
public final class PluginsLoading implements AutoCloseable {
  private final CompletableFuture<PluginHost> host = new CompletableFuture<>();

  private PluginsLoading() {}

  /** Starts loading the plugins of {@code folders}, as {@link PluginHost#load} does. */
  public static PluginsLoading start(
      List<Path> folders, String systemVersion, AdapterSettings settings) {
    PluginsLoading loading = new PluginsLoading();
    Thread thread =
        new Thread(
            () -> {
              try {
                loading.host.complete(PluginHost.load(folders, systemVersion, settings));
              } catch (IOException | RuntimeException | Error e) {
                loading.host.completeExceptionally(e);
              }
            },
            "skillport-plugins");
    thread.setDaemon(true);
    thread.start();
    return loading;
  }

  /** The loaded plugins, once loaded; what loading threw, thrown here. */
  public PluginHost join() throws IOException {
    try {
      return host.join();
    } catch (CompletionException e) {
      // Thrown as loading on this thread would have thrown it: an IOException, or unchecked.
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) cause;
    }
  }

  /**
   * Waits for loading to end and closes what loaded (a second close of the plugins does nothing).
   */
  @Override
  public void close() {
    try {
      join().close();
    } catch (IOException | RuntimeException e) {
      // Nothing loaded, so nothing runs; the start reports why loading failed.
    }
  }
}
