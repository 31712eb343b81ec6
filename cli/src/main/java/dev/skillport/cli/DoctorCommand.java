package dev.skillport.cli;

import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.plugins.PluginFolders;
import dev.skillport.runtime.ScriptToolRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code skillport doctor}: checks what {@code serve} needs on this machine, one line a check with
 * the fix for anything wrong. It reads and probes but starts nothing (no plugin, no Blender) and
 * writes nothing: a doctor that changed the set-up would hide what it found.
 */
@Command(
    name = "doctor",
    addMethodSubcommands = false,
    description = {
      "Check the set-up serve needs: Java, skill roots, script interpreters, plugins, the HTTP"
          + " port, the job store folder and Blender; one line a check, with its fix.",
      "Exits 1 when something required is missing, 0 otherwise (warnings included)."
    })
final class DoctorCommand implements Callable<Integer> {
  /** How a check came out. */
  enum Status {
    OK,
    /** Not needed by what was found, or a choice the user may make otherwise. */
    WARN,
    /** serve cannot work as set up. */
    FAIL;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One line of the report. */
  record Check(Status status, String name, String detail) {
    String line() {
      return String.format(Locale.ROOT, "%-4s  %-12s %s", status.label(), name, detail);
    }
  }

  @ParentCommand private SkillportCommand parent;

  @Mixin private SkillPaths paths;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "The address serve --http would listen on (default: 127.0.0.1).")
  private String host = "127.0.0.1";

  @Option(
      names = "--port",
      paramLabel = "N",
      description = "The port serve --http would listen on (default: 8765).")
  private int port = 8765;

  @Option(
      names = "--plugins",
      paramLabel = "DIR",
      description = "A folder of host-adapter plugin jars serve would be given (repeatable).")
  private List<Path> plugins = new ArrayList<>();

  @Option(
      names = "--blender",
      paramLabel = "PATH",
      description = "The Blender executable serve would be given.")
  private Path blender;

  @Override
  public Integer call() {
    CliEnvironment env = parent.environment();
    List<Check> checks = new ArrayList<>();
    checks.add(java());
    List<Skill> skills = skills(env, checks);
    checks.addAll(interpreters(skills, env.variables()));
    checks.add(plugins(env));
    checks.add(port());
    checks.add(store(env));
    checks.add(blender(env.variables()));
    PrintWriter out = parent.output().stdout();
    checks.forEach(c -> out.println(c.line()));
    out.flush();
    return checks.stream().anyMatch(c -> c.status() == Status.FAIL)
        ? SkillportCommand.EXIT_FAILED
        : SkillportCommand.EXIT_OK;
  }

  private static Check java() {
    Runtime.Version version = Runtime.version();
    String where = System.getProperty("java.home");
    return version.feature() >= 17
        ? new Check(Status.OK, "java", "Java " + version + " at " + where)
        : new Check(
            Status.FAIL,
            "java",
            "Java " + version + " at " + where + "; install a JDK 17 or newer and set JAVA_HOME");
  }

  /** The roots serve would read, how many skills they hold, and whether any has an error. */
  private List<Skill> skills(CliEnvironment env, List<Check> checks) {
    List<SkillRoot> roots;
    try {
      roots = parent.roots(paths);
    } catch (picocli.CommandLine.ParameterException e) {
      checks.add(new Check(Status.FAIL, "skills", e.getMessage()));
      return List.of();
    }
    for (SkillRoot root : roots) {
      if (!Files.isReadable(root.path())) {
        checks.add(
            new Check(
                Status.FAIL,
                "skills",
                root.path() + " cannot be read; give its user read and execute permission"));
        return List.of();
      }
    }
    List<Skill> skills = parent.reader().read(roots, false).skills();
    long unusable =
        skills.stream()
            .filter(s -> s.state() != SkillState.AVAILABLE && s.state() != SkillState.SHADOWED)
            .count();
    String found =
        skills.size() + " skills under " + roots.size() + (roots.size() == 1 ? " root" : " roots");
    checks.add(
        unusable == 0
            ? new Check(Status.OK, "skills", found)
            : new Check(
                Status.WARN,
                "skills",
                found + ", " + unusable + " not usable; run skillport validate to see why"));
    return skills;
  }

  /** One line per interpreter the skills' scripts need, found on PATH or not. */
  private static List<Check> interpreters(List<Skill> skills, Map<String, String> env) {
    Map<String, List<String>> needed = new TreeMap<>();
    for (Skill skill : skills) {
      for (ToolSpec tool : skill.tools()) {
        if (tool.binding() instanceof ToolBinding.Script script) {
          ScriptToolRunner.interpreterFor(script.script())
              .ifPresent(
                  i -> {
                    List<String> users = needed.computeIfAbsent(i, k -> new ArrayList<>());
                    if (!users.contains(skill.name())) {
                      users.add(skill.name());
                    }
                  });
        }
      }
    }
    List<Check> checks = new ArrayList<>();
    needed.forEach(
        (interpreter, users) -> {
          String who = users.size() + (users.size() == 1 ? " skill" : " skills");
          checks.add(
              onPath(interpreter, env)
                  .map(p -> new Check(Status.OK, interpreter, p + " (for " + who + ")"))
                  .orElseGet(
                      () ->
                          new Check(
                              Status.FAIL,
                              interpreter,
                              "not on PATH, and "
                                  + who
                                  + " run "
                                  + interpreter
                                  + " scripts ("
                                  + String.join(", ", users.subList(0, Math.min(3, users.size())))
                                  + "); install it or put it on PATH")));
        });
    return checks;
  }

  /** The plugin jars serve would load: each must carry PF4J's manifest entries. */
  private Check plugins(CliEnvironment env) {
    List<Path> folders = PluginFolders.resolve(plugins, env.variables(), env.userHome());
    List<Path> jars = new ArrayList<>();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        continue;
      }
      try (Stream<Path> files = Files.list(folder)) {
        files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
      } catch (IOException e) {
        return new Check(Status.FAIL, "plugins", folder + " cannot be listed: " + e.getMessage());
      }
    }
    if (jars.isEmpty()) {
      return new Check(Status.OK, "plugins", "none (folders: " + folders.size() + ")");
    }
    List<String> broken = new ArrayList<>();
    for (Path jar : jars) {
      try (JarFile file = new JarFile(jar.toFile())) {
        var manifest = file.getManifest();
        if (manifest == null
            || manifest.getMainAttributes().getValue("Plugin-Id") == null
            || manifest.getMainAttributes().getValue("Plugin-Class") == null) {
          broken.add(jar.getFileName() + " (no Plugin-Id or Plugin-Class in its manifest)");
        }
      } catch (IOException e) {
        broken.add(jar.getFileName() + " (not a readable jar)");
      }
    }
    return broken.isEmpty()
        ? new Check(Status.OK, "plugins", jars.size() + " plugin jars")
        : new Check(
            Status.FAIL,
            "plugins",
            String.join(", ", broken) + "; rebuild the plugin or remove it from its folder");
  }

  private Check port() {
    String where = host + ":" + port;
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return new Check(Status.OK, "port", where + " is free for serve --http");
    } catch (IOException e) {
      return new Check(
          Status.WARN,
          "port",
          where
              + " cannot be listened on ("
              + e.getMessage()
              + "); stop what holds it or give serve --port N");
    }
  }

  /** The folder job stores go in must be writable, or creatable in its nearest existing parent. */
  private static Check store(CliEnvironment env) {
    Path home = env.userHome() != null ? env.userHome() : env.workingDirectory();
    Path jobs = home.resolve(".skillport").resolve("jobs");
    Path existing = jobs;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing != null && Files.isDirectory(existing) && Files.isWritable(existing)) {
      return new Check(Status.OK, "store", jobs + " is writable (embedded job store)");
    }
    return new Check(
        Status.FAIL,
        "store",
        jobs
            + " cannot be written; fix the permissions of "
            + existing
            + " or give serve --jobs-dir DIR");
  }

  private Check blender(Map<String, String> env) {
    Optional<Path> found;
    String source;
    if (blender != null) {
      found = Files.isExecutable(blender) ? Optional.of(blender) : Optional.empty();
      source = "--blender " + blender;
    } else if (env.get("SKILLPORT_BLENDER") != null && !env.get("SKILLPORT_BLENDER").isBlank()) {
      Path named = Path.of(env.get("SKILLPORT_BLENDER").strip());
      found = Files.isExecutable(named) ? Optional.of(named) : onPath(named.toString(), env);
      source = "SKILLPORT_BLENDER";
    } else {
      found = onPath("blender", env);
      source = "PATH";
    }
    return found
        .map(p -> new Check(Status.OK, "blender", p + " (from " + source + ")"))
        .orElseGet(
            () ->
                new Check(
                    blender != null ? Status.FAIL : Status.WARN,
                    "blender",
                    "not found ("
                        + source
                        + "); only skills for Blender need it: install Blender (apt-get install"
                        + " blender) or give serve --blender PATH"));
  }

  /** The first executable {@code name} in the PATH of {@code env}. */
  private static Optional<Path> onPath(String name, Map<String, String> env) {
    String path = env.getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
