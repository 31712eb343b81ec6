package dev.skillport.cli;

import dev.skillport.store.postgres.PostgresLocation;
import dev.skillport.store.postgres.Schema;
import dev.skillport.store.postgres.StoreOpenException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code skillport store migrate|status}: applies the shared store's schema migrations ahead of a
 * rollout, or lists them with their state, without starting a server.
 */
@Command(
    name = "store",
    addMethodSubcommands = false,
    description = {
      "Migrate a PostgreSQL store's schema, or show its migrations (status).",
      "serve migrates on start too; migrate first when several instances roll out at once."
    })
final class StoreCommand implements Callable<Integer> {
  /** What the command does. */
  enum Action {
    MIGRATE,
    STATUS
  }

  @ParentCommand private SkillportCommand parent;

  @Parameters(paramLabel = "ACTION", description = "migrate or status.")
  private Action action;

  @Option(
      names = "--store",
      paramLabel = "URL",
      description =
          "postgresql://host:port/database?user=NAME (default: SKILLPORT_STORE); password from"
              + " PGPASSWORD, ~/.pgpass or --store-password-file.")
  private String store;

  @Option(
      names = "--store-password-file",
      paramLabel = "FILE",
      description = "A file holding the store's password (first line).")
  private Path passwordFile;

  @Override
  public Integer call() {
    CliEnvironment env = parent.environment();
    PrintWriter out = parent.output().stdout();
    PrintWriter err = parent.output().stderr();
    StoreUrl url;
    try {
      url = StoreUrl.parse(store, passwordFile, env.variables(), env.workingDirectory());
    } catch (StartupFailure e) {
      err.println("skillport store: " + e.getMessage());
      err.flush();
      return e.exitCode();
    }
    if (!(url instanceof StoreUrl.Postgres pg)) {
      err.println(
          "skillport store: give a postgresql:// --store (or SKILLPORT_STORE); the embedded"
              + " store needs no migration");
      err.flush();
      return SkillportCommand.EXIT_USAGE;
    }
    PostgresLocation at = pg.location();
    try {
      List<Schema.Step> steps =
          switch (action) {
            case MIGRATE -> Schema.migrate(at, env.variables());
            case STATUS -> Schema.status(at, env.variables());
          };
      out.println("store " + at);
      for (Schema.Step s : steps) {
        out.println("  " + s.version() + "  " + s.state() + "  " + s.description());
      }
      out.flush();
      return SkillportCommand.EXIT_OK;
    } catch (StoreOpenException e) {
      err.println("skillport store: " + e.getMessage());
      err.flush();
      return SkillportCommand.EXIT_ENVIRONMENT;
    }
  }
}
