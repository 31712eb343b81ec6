package dev.skillport.cli;

import dev.skillport.gateway.FolderRegistry;
import dev.skillport.gateway.GatewayMembership;
import dev.skillport.gateway.InstanceClient;
import dev.skillport.gateway.InstanceEntry;
import dev.skillport.mcp.ProtocolVersion;
import dev.skillport.plugins.HostAdapters;
import dev.skillport.server.serve.SkillportServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/** How {@code serve --gateway} makes an HTTP instance a member of the gateway (decision 0057). */
final class InstanceGateway {
  private InstanceGateway() {}

  /** What {@code --gateway} asks for. */
  enum Choice {
    OFF,
    AUTO,
    URL
  }

  /**
   * Reads {@code --gateway}: {@code auto}, {@code off} or an {@code http://} URL.
   *
   * @throws IllegalArgumentException for anything else
   */
  static Choice choice(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    if (v.equals("off")) {
      return Choice.OFF;
    }
    if (v.equals("auto")) {
      return Choice.AUTO;
    }
    if (v.startsWith("http://") || v.startsWith("https://")) {
      URI.create(value.strip());
      return Choice.URL;
    }
    throw new IllegalArgumentException(value + " is not auto, off or an http:// URL");
  }

  /** This instance's registry entry: --instance, else its host product and process id. */
  static InstanceEntry entry(String instance, URI uri, SkillportServer server, String version) {
    HostAdapters adapters = server.plugins().adapters();
    String dcc =
        adapters.adapters().stream()
            .flatMap(a -> a.products().stream().sorted())
            .findFirst()
            .orElse(HostAdapters.STANDALONE_PRODUCT)
            .toLowerCase(Locale.ROOT);
    long pid = ProcessHandle.current().pid();
    String id = instance != null ? instance : dcc + "-" + pid;
    List<String> ids = new ArrayList<>();
    adapters.adapters().forEach(a -> ids.add(a.id()));
    return new InstanceEntry(
        id, uri, dcc, null, ids, "", ProtocolVersion.supportedWire(), version, pid, null);
  }

  /** The membership of an instance; with {@link Choice#AUTO} it starts the gateway when needed. */
  static GatewayMembership membership(
      Choice choice,
      Path folder,
      InstanceEntry entry,
      Supplier<String> digest,
      int gatewayPort,
      int probeSecs) {
    FolderRegistry registry;
    try {
      registry = FolderRegistry.open(folder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Optional<GatewayMembership.Starter> starter = Optional.empty();
    if (choice == Choice.AUTO) {
      List<String> command = new ArrayList<>(launcher());
      command.addAll(
          List.of(
              "gateway",
              "--port",
              Integer.toString(gatewayPort),
              "--registry",
              registry.root().toString(),
              "--probe-interval",
              Integer.toString(probeSecs),
              "--exit-when-idle",
              Long.toString(EXIT_WHEN_IDLE_SECS)));
      starter =
          Optional.of(
              new GatewayMembership.Starter(
                  URI.create("http://127.0.0.1:" + gatewayPort + "/mcp"), command));
    }
    return new GatewayMembership(
        registry,
        entry,
        digest,
        starter,
        new InstanceClient(entry.skillportVersion()),
        Clock.systemUTC());
  }

  /** A gateway an instance started stops once no instance has been registered this long. */
  static final long EXIT_WHEN_IDLE_SECS = 60;

  /**
   * The command that runs Skillport: {@code bin/skillport} when this process was started by it (it
   * says so in {@code skillport.launcher}), else this JVM with this class path.
   */
  static List<String> launcher() {
    String launcher = System.getProperty("skillport.launcher");
    if (launcher != null && Files.isExecutable(Path.of(launcher))) {
      return List.of(launcher);
    }
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
  }
}
