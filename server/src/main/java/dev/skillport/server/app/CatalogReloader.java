package dev.skillport.server.app;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.SkillFolderCache;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the catalog and keeps it current: changes under the skill roots (a new folder, an edited
 * SKILL.md or sibling file, a deleted skill) rebuild it after a quiet period, and the new snapshot
 * is swapped in only when it differs. Calls in flight keep the snapshot they started with.
 */
public final class CatalogReloader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogReloader.class);
  private static final int WATCH_DEPTH = 8;

  private final SkillLoader loader;
  private final List<SkillRoot> roots;
  private final CatalogHolder holder;
  private final Duration debounce;
  private final AtomicLong generation = new AtomicLong();
  private final Set<Path> watched = new HashSet<>();
  private final UnaryOperator<LoadResult> decorator;
  private final Redactor redactor;
  private final List<Consumer<Reload>> listeners = new CopyOnWriteArrayList<>();
  // Guarded by listeners.
  private Reload lastReload;
  private final Object loading = new Object();
  // Guarded by loading.
  private final SkillFolderCache folders = new SkillFolderCache();
  private LoadResult lastLoaded;
  private int lastReads;
  private WatchService watcher;
  private Thread thread;
  private boolean closed;

  public CatalogReloader(
      SkillLoader loader, List<SkillRoot> roots, CatalogHolder holder, Duration debounce) {
    this(loader, roots, holder, debounce, UnaryOperator.identity(), new Redactor());
  }

  /**
   * A reloader whose every catalog is the loader's result passed through {@code decorator} (the
   * bridges add their verdicts, tools and problems); the secrets skills write in the open are
   * taught to {@code redactor}, and the catalog's diagnostics are masked with it.
   */
  public CatalogReloader(
      SkillLoader loader,
      List<SkillRoot> roots,
      CatalogHolder holder,
      Duration debounce,
      UnaryOperator<LoadResult> decorator,
      Redactor redactor) {
    this.loader = loader;
    this.roots = List.copyOf(roots);
    this.holder = holder;
    this.debounce = debounce;
    this.decorator = decorator;
    this.redactor = Objects.requireNonNull(redactor, "redactor");
  }

  /**
   * One finished reload.
   *
   * @param took how long reading the roots and building the catalog took
   * @param swapped whether a new catalog was swapped in (false when nothing changed)
   * @param skills how many skills the loader found
   * @param foldersRead how many skill folders were read from disk (the others had not changed)
   */
  public record Reload(Duration took, boolean swapped, int skills, int foldersRead) {}

  /**
   * Tells {@code listener} of the last reload, if one happened, at once, and of every reload from
   * now on, on the reloading thread; so a listener added while the first catalog loads misses no
   * reload and sees none twice.
   */
  public void addListener(Consumer<Reload> listener) {
    Objects.requireNonNull(listener, "listener");
    synchronized (listeners) {
      listeners.add(listener);
      if (lastReload != null) {
        tell(listener, lastReload);
      }
    }
  }

  private static void tell(Consumer<Reload> listener, Reload reload) {
    try {
      listener.accept(reload);
    } catch (RuntimeException e) {
      LOG.debug("reload listener failed", e);
    }
  }

  /** Loads every root now, every skill folder read again, and swaps the result in. */
  public LoadResult reload() {
    synchronized (loading) {
      folders.clear();
      return reloadChanged();
    }
  }

  /**
   * Loads the roots again, reading only the skill folders that changed since the last load (the
   * ones {@code changed} paths lie in, above or below, and new ones), and swaps the result in.
   */
  public LoadResult reload(Collection<Path> changed) {
    synchronized (loading) {
      folders.invalidate(changed);
      return reloadChanged();
    }
  }

  // Under the loading lock, not this one: republishing need not wait for a load.
  private LoadResult reloadChanged() {
    long start = System.nanoTime();
    LoadResult loaded = loader.load(roots, folders);
    int read = folders.lastReads();
    // Secrets the skills write in the open are learnt first, so no diagnostic can carry them.
    redactor.learn(loaded.skills());
    synchronized (this) {
      lastLoaded = loaded;
      lastReads = read;
      return publish(loaded, start);
    }
  }

  /**
   * Publishes the last loaded skills again, through the decorator: what decorates them changed (a
   * bridged server started or listed new tools). A no-op before the first load.
   */
  public synchronized void republish() {
    if (lastLoaded != null) {
      lastReads = 0;
      publish(lastLoaded, System.nanoTime());
    }
  }

  private LoadResult publish(LoadResult loaded, long start) {
    LoadResult decorated = decorator.apply(loaded);
    LoadResult result =
        new LoadResult(
            decorated.skills(),
            decorated.diagnostics().stream().map(redactor::diagnostic).toList());
    Catalog current = holder.current();
    boolean swapped = false;
    if (current.generation() == 0
        || !current.skills().equals(result.skills())
        || !current.diagnostics().equals(result.diagnostics())) {
      holder.swap(
          Catalog.of(
              generation.incrementAndGet(),
              result.skills(),
              result.diagnostics(),
              current.semantic()));
      swapped = true;
      LOG.info(
          "catalog generation {}: {} skills ({} folders read)",
          generation.get(),
          result.skills().size(),
          lastReads);
    }
    Reload done =
        new Reload(
            Duration.ofNanos(System.nanoTime() - start),
            swapped,
            result.skills().size(),
            lastReads);
    synchronized (listeners) {
      lastReload = done;
      for (Consumer<Reload> listener : listeners) {
        tell(listener, done);
      }
    }
    return result;
  }

  /** Starts watching the roots on a daemon thread. */
  public synchronized void start() throws IOException {
    // A server closed while its first catalog was still loading never starts watching.
    if (thread != null || closed) {
      return;
    }
    watcher = FileSystems.getDefault().newWatchService();
    registerAll();
    thread = new Thread(this::watchLoop, "skill-watcher");
    thread.setDaemon(true);
    thread.start();
  }

  private void watchLoop() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        WatchKey key = watcher.take();
        Set<Path> changed = new HashSet<>();
        boolean lost = drain(key, changed);
        // Debounce: keep draining until the tree has been quiet for the debounce period.
        WatchKey more;
        while ((more = watcher.poll(debounce.toMillis(), TimeUnit.MILLISECONDS)) != null) {
          lost |= drain(more, changed);
        }
        try {
          // Events the watcher dropped leave no trace of where: every folder is read again.
          if (lost) {
            reload();
          } else {
            reload(changed);
          }
          // A folder created just now was not watched yet: files written into it before it was
          // registered raised no event, so read the new folders once more after registering them.
          Set<Path> added = registerAll();
          if (!added.isEmpty()) {
            reload(added);
          }
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
          // One reload that fails, even for want of memory, must not end the watching: the
          // previous catalog stays and the next change is read again.
          LOG.error("reloading skills failed; keeping the previous catalog", e);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ClosedWatchServiceException e) {
      LOG.debug("skill watcher closed");
    }
  }

  /** Adds the paths {@code key}'s events name to {@code changed}; true when events were lost. */
  private static boolean drain(WatchKey key, Set<Path> changed) {
    boolean lost = false;
    Path dir = key.watchable() instanceof Path p ? p : null;
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind() == OVERFLOW || dir == null || !(event.context() instanceof Path name)) {
        lost = true;
      } else {
        changed.add(dir.resolve(name));
      }
    }
    key.reset();
    return lost;
  }

  /** Watches every folder under the roots not watched yet; returns the ones added now. */
  private synchronized Set<Path> registerAll() {
    Set<Path> before = new HashSet<>(watched);
    for (SkillRoot root : roots) {
      if (!Files.isDirectory(root.path())) {
        continue;
      }
      try (Stream<Path> dirs = Files.walk(root.path(), WATCH_DEPTH)) {
        dirs.filter(Files::isDirectory)
            .filter(d -> !d.getFileName().toString().startsWith(".") || d.equals(root.path()))
            .filter(d -> !d.toString().contains("node_modules"))
            .forEach(this::register);
      } catch (IOException | java.io.UncheckedIOException e) {
        LOG.warn("cannot watch {}: {}", root.path(), e.toString());
      }
    }
    Set<Path> added = new HashSet<>(watched);
    added.removeAll(before);
    return added;
  }

  private void register(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    if (watched.contains(abs)) {
      return;
    }
    try {
      abs.register(watcher, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
      watched.add(abs);
    } catch (IOException e) {
      LOG.debug("cannot watch {}: {}", abs, e.toString());
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (thread != null) {
      thread.interrupt();
    }
    if (watcher != null) {
      try {
        watcher.close();
      } catch (IOException e) {
        LOG.debug("closing the skill watcher", e);
      }
    }
  }
}
