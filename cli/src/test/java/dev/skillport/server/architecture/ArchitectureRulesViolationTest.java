package dev.skillport.server.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.skillport.mcp.planted.McpUsingSkillTypes;
import dev.skillport.mcp.planted.McpUsingTheServer;
import dev.skillport.runtime.planted.RuntimeUsingTheProtocol;
import dev.skillport.sdk.planted.SdkUsingTheLoader;
import dev.skillport.server.architecture.violations.CommandLineUser;
import dev.skillport.server.architecture.violations.CyclicA;
import dev.skillport.server.architecture.violations.GenericThrower;
import dev.skillport.server.architecture.violations.LoaderInternalsUser;
import dev.skillport.server.architecture.violations.SkillNameHelper;
import dev.skillport.server.architecture.violations.StdoutPrinter;
import dev.skillport.server.architecture.violations.other.CyclicB;
import org.junit.jupiter.api.Test;

/** Shows each rule rejects a class that breaks it, so a passing rule means something. */
class ArchitectureRulesViolationTest {

  private static void assertViolated(ArchRule rule, Class<?>... classes) {
    JavaClasses imported = new ClassFileImporter().importClasses(classes);
    assertThatThrownBy(() -> rule.check(imported)).isInstanceOf(AssertionError.class);
  }

  @Test
  void stdoutRule_classPrintingToSystemOut_violated() {
    assertViolated(ArchitectureRules.STDOUT_ONLY_THROUGH_CLI_OUTPUT, StdoutPrinter.class);
    assertViolated(ArchitectureRules.STDERR_ONLY_IN_CLI, StdoutPrinter.class);
  }

  @Test
  void genericExceptionRule_newRuntimeException_violated() {
    assertViolated(ArchitectureRules.NO_GENERIC_EXCEPTIONS, GenericThrower.class);
  }

  @Test
  void namingRule_helperClass_violated() {
    assertViolated(ArchitectureRules.NO_GRAB_BAG_NAMES, SkillNameHelper.class);
  }

  @Test
  void mcpRule_protocolClassUsingSkillTypes_violated() {
    assertViolated(
        ArchitectureRules.MCP_DEPENDS_ONLY_ON_JACKSON_SLF4J_JETTY_CAFFEINE,
        McpUsingSkillTypes.class);
  }

  @Test
  void serverRule_serverClassUsingTheCommandLine_violated() {
    assertViolated(ArchitectureRules.SERVER_DOES_NOT_KNOW_CLI, CommandLineUser.class);
    assertViolated(ArchitectureRules.MODULES_DEPEND_DOWNWARD, CommandLineUser.class);
  }

  @Test
  void runtimeRule_runtimeClassWritingTheWire_violated() {
    assertViolated(ArchitectureRules.RUNTIME_KNOWS_NO_PROTOCOL, RuntimeUsingTheProtocol.class);
    assertViolated(ArchitectureRules.MODULES_DEPEND_DOWNWARD, RuntimeUsingTheProtocol.class);
  }

  @Test
  void sdkRule_sdkClassUsingTheLoader_violated() {
    assertViolated(ArchitectureRules.SDK_DEPENDS_ONLY_ON_API, SdkUsingTheLoader.class);
    assertViolated(ArchitectureRules.MODULES_DEPEND_DOWNWARD, SdkUsingTheLoader.class);
  }

  @Test
  void loaderRule_serverClassUsingTheLoadersYamlReader_violated() {
    assertViolated(ArchitectureRules.LOADER_USED_THROUGH_ITS_ENTRY, LoaderInternalsUser.class);
  }

  @Test
  void layerRule_protocolClassUsingTheServer_violated() {
    assertViolated(ArchitectureRules.MODULES_DEPEND_DOWNWARD, McpUsingTheServer.class);
  }

  @Test
  void cycleRule_packagesUsingEachOther_violated() {
    assertViolated(ArchitectureRules.NO_CYCLES_BETWEEN_PACKAGES, CyclicA.class, CyclicB.class);
  }
}
