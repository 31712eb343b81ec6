package dev.skillport.api.host;

import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.stability.API;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pf4j.ExtensionPoint;

/**
 * Connects Skillport to one host application (a DCC such as Blender or Maya, or an embedded
 * interpreter). A plugin marks its implementation with {@code @Extension}; the server starts every
 * adapter after loading the plugins and stops it before the plugin is unloaded.
 *
 * <p>The server consults an adapter when a session loads a skill: the skill's {@code dcc} must be
 * one of {@link #products()} for the adapter to serve it, its tools' {@code required_capabilities}
 * must be among {@link #capabilities()}, and a tool with {@code thread-affinity: main} needs {@link
 * #mainThreadExecutor()}.
 */
@API(status = API.Status.STABLE)
public interface HostAdapter extends ExtensionPoint {

  /** A stable id for logs and messages, for example {@code blender}. */
  String id();

  /** Host products this adapter serves, matched case-insensitively to a skill's {@code dcc}. */
  Set<String> products();

  /** Capabilities the host offers, matched exactly to a tool's {@code required_capabilities}. */
  default Set<String> capabilities() {
    return Set.of();
  }

  /**
   * The executor that runs script tools on the host's main thread, or empty when this adapter
   * cannot run code inside the host.
   */
  default Optional<HostExecutor> mainThreadExecutor() {
    return Optional.empty();
  }

  /**
   * Folders of skills shipped inside the plugin, as resource paths relative to the plugin root (for
   * example {@code skills}). The server unpacks them and serves them at scope {@code system}.
   */
  default List<String> skillRoots() {
    return List.of();
  }

  /**
   * Resources the host offers to every session (for example {@code scene://current}, the open
   * scene), listed by {@code resources/list} and read by {@code resources/read} next to the skills'
   * own. Asked once, after {@link #start()}.
   */
  default List<ResourceProvider> resourceProviders() {
    return List.of();
  }

  /**
   * Whether the host answers now; a load that needs this adapter is refused while it does not, and
   * the server's {@code /readyz} fails while any started adapter is not ready.
   */
  default boolean isReady() {
    return true;
  }

  /**
   * One line on the host's state for people reading {@code server_status}: what runs (for example
   * {@code "Blender 3.4.1, pid 4242"}) or why it is not ready ({@code "restarting after exit code
   * 139, next attempt in 2 s"}). Empty when there is nothing to add.
   */
  default String statusDetail() {
    return "";
  }

  /**
   * Settings the operator gave this adapter, called once before {@link #start()}: the server's
   * {@code --adapter-setting ID.KEY=VALUE} options whose {@code ID} is this adapter's {@link
   * #id()}, keyed by {@code KEY} (for example {@code executable} from {@code --adapter-setting
   * blender.executable=/opt/blender/blender}). Empty when none were given. An adapter ignores keys
   * it does not know and may read its own environment variables as well.
   */
  default void configure(Map<String, String> settings) {}

  /**
   * Connects to or launches the host. Called once, before any skill of this adapter loads; a thrown
   * exception disables the adapter and is reported as a diagnostic.
   */
  default void start() throws Exception {}

  /** Releases the host; called once on shutdown, also after a failed {@link #start()}. */
  default void stop() {}
}
