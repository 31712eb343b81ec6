package dev.skillport.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a JVM a test starts: this JVM's {@code java}, with this JVM's home and temp
 * folder (the build gives tests folders of their own; a JVM takes its home from the user database,
 * not from {@code HOME}, so it has to be told).
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java -Duser.home=... -Djava.io.tmpdir=... ARGS...}. */
  public static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(systemProperties());
    command.addAll(List.of(args));
    return command;
  }

  /** The options that give a child JVM this JVM's home and temp folder. */
  public static List<String> systemProperties() {
    return List.of(
        "-Duser.home=" + System.getProperty("user.home"),
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
  }
}
