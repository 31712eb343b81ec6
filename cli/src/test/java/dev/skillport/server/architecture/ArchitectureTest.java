package dev.skillport.server.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Checks the architecture rules over every production class of Skillport on the class path. */
class ArchitectureTest {
  /**
   * Test classes live under {@code test-classes} of any build folder ({@code target}, {@code
   * target-x}); ArchUnit's own option only knows {@code target/test-classes}.
   */
  static final ImportOption PRODUCTION_ONLY =
      location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");

  private static JavaClasses production;

  @BeforeAll
  static void importProductionClasses() {
    production =
        new ClassFileImporter().withImportOption(PRODUCTION_ONLY).importPackages("dev.skillport");
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        Arguments.of(
            "api depends on nothing of ours", ArchitectureRules.API_DEPENDS_ON_NOTHING_OF_OURS),
        Arguments.of("model depends only on api", ArchitectureRules.MODEL_DEPENDS_ONLY_ON_API),
        Arguments.of("loader depends only on api", ArchitectureRules.LOADER_DEPENDS_ONLY_ON_API),
        Arguments.of(
            "mcp depends only on Jackson, SLF4J and Jetty",
            ArchitectureRules.MCP_DEPENDS_ONLY_ON_JACKSON_SLF4J_JETTY_CAFFEINE),
        Arguments.of(
            "registry does not know loader", ArchitectureRules.REGISTRY_DOES_NOT_KNOW_LOADER),
        Arguments.of(
            "loader does not know registry", ArchitectureRules.LOADER_DOES_NOT_KNOW_REGISTRY),
        Arguments.of(
            "no cycles between modules", ArchitectureRules.NO_CYCLES_BETWEEN_TOP_LEVEL_PACKAGES),
        Arguments.of("no cycles between packages", ArchitectureRules.NO_CYCLES_BETWEEN_PACKAGES),
        Arguments.of("server does not know cli", ArchitectureRules.SERVER_DOES_NOT_KNOW_CLI),
        Arguments.of(
            "bridge, web, plugins and gateway know neither each other nor server",
            ArchitectureRules.PRODUCTS_DO_NOT_KNOW_EACH_OTHER),
        Arguments.of("runtime knows no protocol", ArchitectureRules.RUNTIME_KNOWS_NO_PROTOCOL),
        Arguments.of("sdk depends only on api", ArchitectureRules.SDK_DEPENDS_ONLY_ON_API),
        Arguments.of(
            "loader used through its entry", ArchitectureRules.LOADER_USED_THROUGH_ITS_ENTRY),
        Arguments.of("modules depend downward", ArchitectureRules.MODULES_DEPEND_DOWNWARD),
        Arguments.of(
            "stdout only through CliOutput", ArchitectureRules.STDOUT_ONLY_THROUGH_CLI_OUTPUT),
        Arguments.of("stderr only in the CLI", ArchitectureRules.STDERR_ONLY_IN_CLI),
        Arguments.of("no generic exceptions", ArchitectureRules.NO_GENERIC_EXCEPTIONS),
        Arguments.of("no grab-bag names", ArchitectureRules.NO_GRAB_BAG_NAMES));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule_productionClasses_holds(String name, ArchRule rule) {
    rule.check(production);
  }

  @Test
  void import_productionClasses_coversEveryModuleAndNoTests() {
    assertThat(production.stream().map(JavaClass::getPackageName))
        .anyMatch(p -> p.startsWith("dev.skillport.api"))
        .anyMatch(p -> p.startsWith("dev.skillport.model"))
        .anyMatch(p -> p.startsWith("dev.skillport.loader"))
        .anyMatch(p -> p.startsWith("dev.skillport.mcp"))
        .anyMatch(p -> p.startsWith("dev.skillport.runtime"))
        .anyMatch(p -> p.startsWith("dev.skillport.workflows"))
        .anyMatch(p -> p.startsWith("dev.skillport.testkit"))
        .anyMatch(p -> p.startsWith("dev.skillport.bridge"))
        .anyMatch(p -> p.startsWith("dev.skillport.web"))
        .anyMatch(p -> p.startsWith("dev.skillport.plugins"))
        .anyMatch(p -> p.startsWith("dev.skillport.gateway"))
        .anyMatch(p -> p.startsWith("dev.skillport.server"))
        .anyMatch(p -> p.startsWith("dev.skillport.cli"));
    assertThat(production.contain(ArchitectureTest.class)).isFalse();
    // The server's test helpers reach this module as a test jar; they are tests too.
    assertThat(production.contain("dev.skillport.runtime.jobs.RawMcpClient")).isFalse();
  }
}
