package dev.skillport.runtime.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads a skill's file as it is on disk now, refusing anything but a regular file of bounded size.
 */
@FunctionalInterface
public interface SkillFileReader {
  /**
   * @throws IOException when the file cannot be read, is not a regular file or is over {@code
   *     maxBytes}
   */
  byte[] read(Path file, long maxBytes) throws IOException;
}
