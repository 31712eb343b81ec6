package dev.skillport.loader;

import dev.skillport.loader.discovery.DiscoveredSkill;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What a {@link SkillLoader} read of each skill folder, kept between loads so that a later load
 * re-reads only the folders that changed: a folder is read again when it is new, when it was found
 * under another root or file name, or when a path in or above it was {@linkplain #invalidate
 * invalidated}. Discovery and resolution (shadowing, dependencies) run on every load, so a
 * dependant of a changed skill is resolved again without being read again.
 *
 * <p>Not thread-safe: one loader thread at a time (the catalog reloader's).
 */
public final class SkillFolderCache {
  private final Map<Path, Entry> entries = new HashMap<>();
  private int lastReads;
  private int lastReused;

  /** Forgets every folder whose directory is, holds or lies inside one of {@code changed}. */
  public void invalidate(Collection<Path> changed) {
    for (Path path : changed) {
      Path real = realPath(path);
      if (real == null) {
        entries.clear();
        return;
      }
      entries.keySet().removeIf(dir -> real.startsWith(dir) || dir.startsWith(real));
    }
  }

  /** Forgets every folder: the next load reads them all. */
  public void clear() {
    entries.clear();
  }

  /** How many skill folders the last load read from disk. */
  public int lastReads() {
    return lastReads;
  }

  /** How many skill folders the last load took from this cache without reading them. */
  public int lastReused() {
    return lastReused;
  }

  /** How many skill folders are remembered. */
  public int size() {
    return entries.size();
  }

  SkillReader.Read get(DiscoveredSkill found) {
    Entry e = entries.get(found.directory());
    return e != null && e.sameAs(found) ? e.read() : null;
  }

  void finish(Map<DiscoveredSkill, SkillReader.Read> reads, int readNow) {
    entries.clear();
    reads.forEach((found, read) -> entries.put(found.directory(), new Entry(found, read)));
    lastReads = readNow;
    lastReused = reads.size() - readNow;
  }

  /**
   * {@code path} with links resolved, for comparing with discovered (real) folders; a deleted path
   * through its nearest existing parent. Null when nothing of it resolves.
   */
  private static Path realPath(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    Path tail = absolute.getFileSystem().getPath("");
    for (Path p = absolute; p != null; p = p.getParent()) {
      try {
        return p.toRealPath().resolve(tail);
      } catch (IOException e) {
        if (p.getFileName() == null) {
          return null;
        }
        tail = p.getFileName().resolve(tail);
      }
    }
    return null;
  }

  /** A folder's read, valid while the folder is found the same way again. */
  private record Entry(DiscoveredSkill found, SkillReader.Read read) {
    boolean sameAs(DiscoveredSkill other) {
      return found.skillFile().equals(other.skillFile())
          && found.rootOrder() == other.rootOrder()
          && found.rootPath().equals(other.rootPath())
          && found.root().equals(other.root())
          && found.lowercaseFileName() == other.lowercaseFileName();
    }
  }
}
