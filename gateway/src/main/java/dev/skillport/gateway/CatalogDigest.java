package dev.skillport.gateway;

import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * The digest an instance announces with each heartbeat: of what the gateway indexes (every skill's
 * name, state, description and tools), so it changes exactly when the gateway must read the catalog
 * again. Computed once per catalog generation.
 */
public final class CatalogDigest implements Supplier<String> {
  private final Supplier<Catalog> catalog;
  private long generation = -1;
  private String digest = "";

  public CatalogDigest(Supplier<Catalog> catalog) {
    this.catalog = catalog;
  }

  @Override
  public synchronized String get() {
    Catalog now = catalog.get();
    if (now.generation() != generation) {
      digest = of(now);
      generation = now.generation();
    }
    return digest;
  }

  /** The digest of {@code catalog}: {@code sha256:} and 16 hex digits. */
  static String of(Catalog catalog) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
    for (Skill s : catalog.skills()) {
      update(sha, s.name());
      update(sha, s.state().name());
      update(sha, s.manifest().description());
      for (ToolSpec t : s.tools()) {
        update(sha, t.name());
      }
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest(), 0, 8);
  }

  private static void update(MessageDigest sha, String text) {
    sha.update(text.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
  }
}
