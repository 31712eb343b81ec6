package dev.skillport.cli;

import dev.skillport.loader.LoadResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code skillport validate}: reads skill folders and reports every problem found. */
@Command(
    name = "validate",
    addMethodSubcommands = false,
    description = "Check skill folders and print each skill's verdict and diagnostics.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:no errors (warnings and notices allowed)",
      "1:a skill has an error, or no skill was found",
      "2:usage error",
      "3:internal failure"
    })
final class ValidateCommand implements Callable<Integer> {
  @ParentCommand private SkillportCommand parent;

  @Mixin private SkillPaths paths;

  @Option(
      names = "--strict",
      description = "Treat format warnings as errors, as upstream loaders do (default: lenient).")
  private boolean strict;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "Output format: text or json (default: text).")
  private ReportFormat format = ReportFormat.TEXT;

  @Override
  public Integer call() {
    LoadResult result = parent.reader().read(parent.roots(paths), strict);
    ValidationReport report =
        ValidationReport.of(result, strict, parent.displayPaths(), parent.redactor());
    format.write(report, parent.output().stdout());
    return report.passed() ? SkillportCommand.EXIT_OK : SkillportCommand.EXIT_FAILED;
  }
}
