package dev.skillport.runtime;

import dev.skillport.model.skill.Skill;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The digest of a skill as served: {@code sha256:<hex>} over the relative path and content of every
 * file in its folder (not those under a dot-folder, {@code __pycache__} or {@code node_modules}).
 * Two instances with the same digest for a skill run the same code, so either may run a queued call
 * of it. Computed once per loaded skill (a reload makes a new one).
 */
public final class SkillDigests {
  private static final Set<String> SKIPPED = Set.of("__pycache__", "node_modules");

  private record Known(Skill skill, String digest) {}

  private final Map<Path, Known> known = new ConcurrentHashMap<>();

  /** The digest of {@code skill}. */
  public String of(Skill skill) {
    Path dir = skill.location().directory();
    Known k = known.get(dir);
    if (k != null && k.skill() == skill) {
      return k.digest();
    }
    String digest = compute(skill);
    known.put(dir, new Known(skill, digest));
    return digest;
  }

  private static String compute(Skill skill) {
    MessageDigest sha = sha256();
    Path dir = skill.location().directory();
    if (Files.isDirectory(dir)) {
      List<Path> files;
      try (Stream<Path> walk = Files.walk(dir)) {
        files =
            walk.filter(Files::isRegularFile)
                .filter(f -> served(dir.relativize(f)))
                .sorted()
                .toList();
      } catch (IOException | UncheckedIOException e) {
        files = List.of();
      }
      for (Path f : files) {
        sha.update(
            dir.relativize(f).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        try {
          sha.update(Files.readAllBytes(f));
        } catch (IOException e) {
          sha.update("unreadable".getBytes(StandardCharsets.UTF_8));
        }
        sha.update((byte) 0);
      }
    } else {
      // No folder of its own (a skill made in code): its declaration stands for it.
      sha.update(skill.manifest().toString().getBytes(StandardCharsets.UTF_8));
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private static boolean served(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || SKIPPED.contains(name)) {
        return false;
      }
    }
    return true;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }
}
