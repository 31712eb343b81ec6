package dev.skillport.api.script;

import dev.skillport.api.stability.API;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;

/**
 * The {@value #PACKAGE} Python package: the script API of dcc-mcp-core that skill scripts written
 * for it import. The result helpers ({@code skill_success}, {@code skill_error}, …), {@code
 * skill_entry} and {@code run_main}, {@code skills_helper}, cancellation, the schema helpers,
 * {@code validate_skill}, {@code Capturer}, {@code connect_ipc} and the data contracts work; every
 * other name upstream exports imports and, used, says it has no meaning in a Skillport script. Pure
 * Python 3.7+, standard library only.
 *
 * <p>A runner writes the package into a folder of its own with {@link #writeTo(Path)} and puts that
 * folder on the script's import path ({@code PYTHONPATH}, or {@code sys.path} inside a host).
 */
@API(status = API.Status.EXPERIMENTAL)
public final class PythonCompat {
  /** The package's import name. */
  public static final String PACKAGE = "dcc_mcp_core";

  /** The package's files, under {@value #RESOURCE_ROOT} on the class path. */
  static final List<String> FILES =
      List.of(
          "__init__.py",
          "_records.py",
          "_tool_registration.py",
          "_typing_compat.py",
          "_unsupported.py",
          "_upstream.py",
          "_yaml.py",
          "adapter_contracts.py",
          "asset_import.py",
          "cancellation.py",
          "capture.py",
          "diagnostics.py",
          "ipc.py",
          "result_envelope.py",
          "schema.py",
          "skill.py",
          "skills_helper.py",
          "spatial.py",
          "validation.py");

  static final String RESOURCE_ROOT = "dev/skillport/api/script/python/" + PACKAGE + "/";

  private PythonCompat() {}

  /**
   * Writes the package into {@code parent}/{@value #PACKAGE}, replacing files of the same names.
   *
   * @return {@code parent}, the folder to put on the import path
   */
  public static Path writeTo(Path parent) throws IOException {
    Objects.requireNonNull(parent, "parent");
    Path pkg = Files.createDirectories(parent.resolve(PACKAGE));
    for (String file : FILES) {
      try (InputStream in =
          PythonCompat.class.getClassLoader().getResourceAsStream(RESOURCE_ROOT + file)) {
        if (in == null) {
          throw new IllegalStateException("missing resource " + RESOURCE_ROOT + file);
        }
        Files.copy(in, pkg.resolve(file), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return parent;
  }
}
