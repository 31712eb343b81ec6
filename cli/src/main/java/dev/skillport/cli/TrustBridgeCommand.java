package dev.skillport.cli;

import dev.skillport.bridge.BridgeFingerprint;
import dev.skillport.bridge.BridgeTrust;
import dev.skillport.bridge.BridgeUnverifiableException;
import dev.skillport.bridge.TrustFile;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code skillport trust-bridge PATH…}: the operator's act of trusting the MCP bridges of the
 * skills found, after reading what each runs. Each is written to the trust file as what it runs
 * ({@link BridgeFingerprint}: its folder, the program its command resolves to and its digest, its
 * arguments and the files they name, its environment names and the digest of every file in its
 * folder); a server reading that file runs it, and refuses to start it when any of that changes.
 */
@Command(
    name = "trust-bridge",
    addMethodSubcommands = false,
    description =
        "Trust the MCP bridges of the skills found: print what each runs and record it in the"
            + " trust file (folder, program and its digest, arguments and the files they name,"
            + " environment names, the digest of every file in the folder).")
final class TrustBridgeCommand implements Callable<Integer> {
  @ParentCommand private SkillportCommand parent;

  @Mixin private SkillPaths paths;

  @Option(
      names = "--trust-file",
      paramLabel = "FILE",
      description = "The trust file to write (default ~/.skillport/trusted-bridges.yaml).")
  private Path trustFile;

  @Override
  public Integer call() {
    CliEnvironment env = parent.environment();
    PrintWriter out = parent.output().stdout();
    PrintWriter err = parent.output().stderr();
    Path home = env.userHome() != null ? env.userHome() : env.workingDirectory();
    Path file =
        trustFile != null ? env.workingDirectory().resolve(trustFile) : TrustFile.defaultPath(home);
    Redactor redactor = parent.redactor();
    BridgeTrust refusals = new BridgeTrust(Set.of(), null, redactor, env.variables());
    List<Skill> bridges = new ArrayList<>();
    for (Skill skill : parent.reader().read(parent.roots(paths), false).skills()) {
      if (skill.bridge().isPresent() && skill.state() != SkillState.SHADOWED) {
        bridges.add(skill);
      }
    }
    if (bridges.isEmpty()) {
      err.println("skillport: no skill with a valid MCP bridge (metadata.dcc-mcp.mcp) was found");
      err.flush();
      return SkillportCommand.EXIT_FAILED;
    }
    int failed = 0;
    for (Skill skill : bridges) {
      McpBridgeSpec spec = skill.bridge().orElseThrow();
      if (refusals.check(skill) instanceof BridgeTrust.Verdict.SecretInline inline) {
        err.println("skillport: not trusted: " + inline.message() + " (" + inline.hint() + ")");
        failed++;
        continue;
      }
      BridgeFingerprint fingerprint;
      try {
        fingerprint = refusals.fingerprint(skill);
      } catch (BridgeUnverifiableException e) {
        err.println(
            "skillport: not trusted: what the MCP bridge of '"
                + skill.name()
                + "' runs cannot be checked, as "
                + e.getMessage()
                + (e.hint() == null ? "" : " (" + e.hint() + ")"));
        failed++;
        continue;
      }
      try {
        TrustFile.put(file, skill.name(), fingerprint);
      } catch (IOException e) {
        err.println("skillport: cannot write " + file + ": " + e.getMessage());
        err.flush();
        return SkillportCommand.EXIT_ENVIRONMENT;
      }
      out.println("trusted " + skill.name() + ": " + commandLine(spec));
      out.println("  folder: " + fingerprint.folder());
      out.println("  program: " + fingerprint.program() + " " + fingerprint.programDigest());
      for (Map.Entry<String, String> e : fingerprint.argFiles().entrySet()) {
        out.println("  file " + e.getKey() + ": " + e.getValue());
      }
      out.println("  cwd: " + parent.displayPaths().show(spec.cwd()));
      for (Map.Entry<String, String> e : spec.env().entrySet()) {
        out.println("  env " + e.getKey() + "=" + redactor.text(shown(e, redactor)));
      }
      out.println("  folder files: " + fingerprint.files().size() + " (each by its digest)");
    }
    if (failed < bridges.size()) {
      out.println("in " + file);
    }
    out.flush();
    err.flush();
    return failed == 0 ? SkillportCommand.EXIT_OK : SkillportCommand.EXIT_FAILED;
  }

  private static String shown(Map.Entry<String, String> e, Redactor redactor) {
    return redactor.isSecretName(e.getKey()) && !Redactor.isReference(e.getValue())
        ? Redactor.MASK
        : e.getValue();
  }

  private static String commandLine(McpBridgeSpec spec) {
    StringBuilder line = new StringBuilder(spec.command());
    for (String arg : spec.args()) {
      line.append(' ').append(arg.isEmpty() || arg.contains(" ") ? "'" + arg + "'" : arg);
    }
    return line.toString();
  }
}
