package dev.skillport.bridge;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What an operator trusts when trusting a bridge: what runs, read from disk. The skill's folder
 * (its real path), the command as written and the program it resolves to (absolute path and
 * digest), the arguments, the digest of each argument that names a file (the script an interpreter
 * runs: {@code server.py}, {@code dist/index.js}), the names of the environment variables it is
 * given (never their values), and the digest of every file in the skill's folder.
 *
 * @param folder the skill folder's real path
 * @param command the command as {@code mcp.yaml} writes it
 * @param program the absolute path the command resolves to, which is what is started
 * @param programDigest {@code sha256:<hex>} of the program file
 * @param args the arguments as written
 * @param argFiles argument (as written) to the digest of the file it names, for each argument that
 *     names a regular file from the bridge's working folder
 * @param envNames the names of the variables {@code mcp.yaml} sets, sorted
 * @param files path relative to the folder ({@code /}-separated) to digest, for every file in it
 */
public record BridgeFingerprint(
    Path folder,
    String command,
    Path program,
    String programDigest,
    List<String> args,
    Map<String, String> argFiles,
    List<String> envNames,
    Map<String, String> files) {
  public BridgeFingerprint {
    Objects.requireNonNull(folder, "folder");
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(programDigest, "programDigest");
    if (!folder.isAbsolute() || !program.isAbsolute()) {
      throw new IllegalArgumentException("folder and program must be absolute paths");
    }
    args = List.copyOf(args);
    argFiles = java.util.Collections.unmodifiableMap(new TreeMap<>(argFiles));
    envNames = List.copyOf(new TreeSet<>(envNames));
    files = java.util.Collections.unmodifiableMap(new TreeMap<>(files));
  }

  /** How many file names a difference names before it says "and N more". */
  private static final int NAMED = 5;

  /**
   * What differs from {@code trusted}, in words, for a diagnostic ("its program /usr/bin/node
   * changed; its file helper.py changed").
   */
  String difference(BridgeFingerprint trusted) {
    List<String> out = new ArrayList<>();
    if (!folder.equals(trusted.folder)) {
      out.add("it is in " + folder + ", not in " + trusted.folder);
    }
    if (!command.equals(trusted.command)) {
      out.add("its command changed");
    }
    if (!program.equals(trusted.program)) {
      out.add("its command now runs " + program + ", not " + trusted.program);
    } else if (!programDigest.equals(trusted.programDigest)) {
      out.add("its program " + program + " changed");
    }
    if (!args.equals(trusted.args)) {
      out.add("its arguments changed");
    } else if (!argFiles.equals(trusted.argFiles)) {
      out.add("the file its arguments name changed (" + changed(argFiles, trusted.argFiles) + ")");
    }
    if (!envNames.equals(trusted.envNames)) {
      out.add(
          "the names of its environment variables changed (now ["
              + String.join(", ", envNames)
              + "], trusted ["
              + String.join(", ", trusted.envNames)
              + "])");
    }
    if (!files.equals(trusted.files)) {
      out.add("its folder's files changed (" + changed(files, trusted.files) + ")");
    }
    return out.isEmpty() ? "nothing changed" : String.join("; ", out);
  }

  /** "a.py changed, b.py added, c.py removed", naming at most a few. */
  private static String changed(Map<String, String> now, Map<String, String> before) {
    List<String> names = new ArrayList<>();
    TreeSet<String> all = new TreeSet<>(now.keySet());
    all.addAll(before.keySet());
    for (String name : all) {
      String a = now.get(name);
      String b = before.get(name);
      if (a == null) {
        names.add(name + " removed");
      } else if (b == null) {
        names.add(name + " added");
      } else if (!a.equals(b)) {
        names.add(name + " changed");
      }
    }
    if (names.size() <= NAMED) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, NAMED)) + " and " + (names.size() - NAMED) + " more";
  }
}
