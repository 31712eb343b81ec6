package dev.skillport.runtime.process;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a process the server starts inherits from the server's own environment. */
public final class ChildEnvironment {
  /**
   * Variables every child process inherits from the server when set: enough to find programs, a
   * home, a locale and a temporary folder, and nothing that usually carries credentials.
   */
  public static final List<String> BASE =
      List.of(
          "PATH",
          "HOME",
          "USER",
          "LOGNAME",
          "LANG",
          "LC_ALL",
          "LC_CTYPE",
          "TZ",
          "TMPDIR",
          "TEMP",
          "TMP",
          "SYSTEMROOT",
          "PATHEXT",
          "COMSPEC",
          "WINDIR");

  private ChildEnvironment() {}

  /** The {@link #BASE} variables of {@code server} that are set, in that order. */
  public static Map<String, String> base(Map<String, String> server) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String name : BASE) {
      String value = server.get(name);
      if (value != null) {
        out.put(name, value);
      }
    }
    return out;
  }
}
