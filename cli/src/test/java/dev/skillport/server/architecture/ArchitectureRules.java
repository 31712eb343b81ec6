package dev.skillport.server.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.library.GeneralCodingRules;
import java.util.Arrays;

/** The rules, kept apart from the tests so they can also be checked against bad examples. */
final class ArchitectureRules {
  private ArchitectureRules() {}

  static final String API = "dev.skillport.api..";
  static final String MODEL = "dev.skillport.model..";
  static final String LOADER = "dev.skillport.loader..";
  static final String REGISTRY = "dev.skillport.registry..";
  static final String CLI = "dev.skillport.cli..";
  static final String MCP = "dev.skillport.mcp..";

  /** The one rule of who owns what, which the protocol layer applies to its sessions. */
  static final String OWNER = "dev.skillport.api.owner..";

  static final String SDK = "dev.skillport.sdk..";
  static final String BUNDLED = "dev.skillport.bundled..";
  static final String RUNTIME = "dev.skillport.runtime..";
  static final String WORKFLOWS = "dev.skillport.workflows..";
  static final String TESTKIT = "dev.skillport.testkit..";
  static final String BRIDGE = "dev.skillport.bridge..";
  static final String WEB = "dev.skillport.web..";
  static final String PLUGINS = "dev.skillport.plugins..";
  static final String GATEWAY = "dev.skillport.gateway..";
  static final String SERVER = "dev.skillport.server..";

  static final ArchRule API_DEPENDS_ON_NOTHING_OF_OURS =
      noClasses()
          .that()
          .resideInAPackage(API)
          .should()
          .dependOnClassesThat(resideInAPackage("dev.skillport..").and(not(resideInAPackage(API))))
          .because("platform-api is the contract every other module builds on");

  static final ArchRule MODEL_DEPENDS_ONLY_ON_API =
      noClasses()
          .that()
          .resideInAPackage(MODEL)
          .should()
          .dependOnClassesThat(
              resideInAPackage("dev.skillport..").and(not(resideInAnyPackage(API, MODEL))))
          .because("the skill model sits right above the plugin SPI");

  static final ArchRule LOADER_DEPENDS_ONLY_ON_API =
      noClasses()
          .that()
          .resideInAPackage(LOADER)
          .should()
          .dependOnClassesThat(
              resideInAPackage("dev.skillport..").and(not(resideInAnyPackage(API, MODEL, LOADER))))
          .because("skill-loader may use platform-api and the skill model only");

  static final ArchRule MCP_DEPENDS_ONLY_ON_JACKSON_SLF4J_JETTY_CAFFEINE =
      classes()
          .that()
          .resideInAPackage(MCP)
          .should()
          .onlyDependOnClassesThat(
              resideInAnyPackage(
                  MCP,
                  OWNER,
                  "java..",
                  "com.fasterxml.jackson..",
                  "org.slf4j..",
                  "org.eclipse.jetty..",
                  "com.github.benmanes.caffeine.."))
          .because(
              "the protocol layer knows JSON-RPC, MCP and transports, nothing of skills; of the"
                  + " platform API only who owns a session (decision 0041)");

  // No registry classes may exist yet: the rule then holds vacuously instead of failing as empty.
  static final ArchRule REGISTRY_DOES_NOT_KNOW_LOADER =
      noClasses()
          .that()
          .resideInAPackage(REGISTRY)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(LOADER)
          .allowEmptyShould(true)
          .because("the server composes registry and loader; they do not know each other");

  static final ArchRule LOADER_DOES_NOT_KNOW_REGISTRY =
      noClasses()
          .that()
          .resideInAPackage(LOADER)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(REGISTRY)
          .allowEmptyShould(true)
          .because("the server composes registry and loader; they do not know each other");

  /**
   * Outside the loader, only its entry package ({@code SkillLoader}, {@code LoadResult}, roots and
   * options) and its safe file reading ({@code loader.files}, which resource reads share) are used.
   */
  static final ArchRule LOADER_USED_THROUGH_ITS_ENTRY =
      noClasses()
          .that()
          .resideOutsideOfPackage(LOADER)
          .should()
          .dependOnClassesThat(
              resideInAPackage(LOADER)
                  .and(
                      not(
                          resideInAnyPackage(
                              "dev.skillport.loader", "dev.skillport.loader.files"))))
          .because("the loader's parsers, resolver and schemas are its own");

  static final ArchRule SDK_DEPENDS_ONLY_ON_API =
      noClasses()
          .that()
          .resideInAPackage(SDK)
          .should()
          .dependOnClassesThat(
              resideInAPackage("dev.skillport..").and(not(resideInAnyPackage(API, MODEL, SDK))))
          .because(
              "a skill's Java code compiles against the SDK and the contract alone; the"
                  + " scaffold checks names by the model's rules");

  static final ArchRule RUNTIME_KNOWS_NO_PROTOCOL =
      noClasses()
          .that()
          .resideInAnyPackage(RUNTIME, WORKFLOWS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(MCP, "org.eclipse.jetty..", LOADER)
          .because(
              "running a call answers a typed outcome; the MCP surface in server renders the wire");

  /**
   * The bridges, the page and the plugins are products of their own: none uses another or the
   * server that composes them (what the page needs of the server it is lent through {@code
   * SiteSources} and {@code MetricsExposition}).
   */
  static final ArchRule PRODUCTS_DO_NOT_KNOW_EACH_OTHER =
      CompositeArchRule.of(productKnowsNoOther(BRIDGE, WEB, PLUGINS, GATEWAY))
          .and(productKnowsNoOther(WEB, BRIDGE, PLUGINS, GATEWAY))
          .and(productKnowsNoOther(PLUGINS, BRIDGE, WEB, GATEWAY))
          .and(productKnowsNoOther(GATEWAY, BRIDGE, WEB, PLUGINS));

  private static ArchRule productKnowsNoOther(String product, String... others) {
    String[] forbidden = Arrays.copyOf(others, others.length + 1);
    forbidden[others.length] = SERVER;
    return noClasses()
        .that()
        .resideInAPackage(product)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden)
        .because(
            "server composes the bridges, the page and the plugins, and the command line the"
                + " gateway; none uses the server");
  }

  static final ArchRule SERVER_DOES_NOT_KNOW_CLI =
      noClasses()
          .that()
          .resideInAPackage(SERVER)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(CLI)
          .because("the command line composes a server from its configuration, not the reverse");

  /**
   * The modules in the order of the root pom: each may use only those below it. Test support and
   * plugins are outside the layers (they are not on the class path as production code).
   */
  static final ArchRule MODULES_DEPEND_DOWNWARD =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("platform-api")
          .definedBy(API)
          .layer("skill-model")
          .definedBy(MODEL)
          .layer("skill-loader")
          .definedBy(LOADER)
          .layer("registry")
          .definedBy(REGISTRY)
          .layer("skill-sdk")
          .definedBy(SDK)
          .layer("mcp")
          .definedBy(MCP)
          .layer("runtime")
          .definedBy(RUNTIME)
          .layer("workflows")
          .definedBy(WORKFLOWS)
          .layer("skill-testkit")
          .definedBy(TESTKIT)
          .layer("bundled-skills")
          .definedBy(BUNDLED)
          .layer("bridge")
          .definedBy(BRIDGE)
          .layer("web")
          .definedBy(WEB)
          .layer("plugins")
          .definedBy(PLUGINS)
          .layer("gateway")
          .definedBy(GATEWAY)
          .layer("server")
          .definedBy(SERVER)
          .layer("cli")
          .definedBy(CLI)
          .whereLayer("cli")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("server")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("gateway")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("plugins")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("web")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("bridge")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("bundled-skills")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("skill-testkit")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("workflows")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("runtime")
          .mayOnlyBeAccessedByLayers(
              "workflows", "skill-testkit", "bridge", "web", "plugins", "server", "cli")
          .whereLayer("mcp")
          .mayOnlyBeAccessedByLayers("bridge", "web", "gateway", "server", "cli")
          .whereLayer("skill-sdk")
          .mayOnlyBeAccessedByLayers("bundled-skills", "server", "cli")
          .whereLayer("registry")
          .mayOnlyBeAccessedByLayers("runtime", "skill-testkit", "web", "gateway", "server", "cli")
          .whereLayer("skill-loader")
          .mayOnlyBeAccessedByLayers(
              "skill-testkit", "bundled-skills", "bridge", "plugins", "server", "cli")
          .because("a module never uses one built after it (architecture.md, Modules)");

  static final ArchRule NO_CYCLES_BETWEEN_TOP_LEVEL_PACKAGES =
      slices().matching("dev.skillport.(*)..").should().beFreeOfCycles();

  /** Every package, sub-packages included. */
  static final ArchRule NO_CYCLES_BETWEEN_PACKAGES =
      slices().matching("dev.skillport.(**)").should().beFreeOfCycles();

  static final ArchRule STDOUT_ONLY_THROUGH_CLI_OUTPUT =
      noClasses()
          .that()
          .doNotHaveFullyQualifiedName("dev.skillport.cli.CliOutput")
          .should()
          .accessField(System.class, "out")
          .because(
              "stdout carries command results and the stdio protocol; only CliOutput writes it");

  static final ArchRule STDERR_ONLY_IN_CLI =
      noClasses()
          .that()
          .resideOutsideOfPackage(CLI)
          .should()
          .accessField(System.class, "err")
          .because("outside the command line, messages go through SLF4J");

  static final ArchRule NO_GENERIC_EXCEPTIONS =
      GeneralCodingRules.NO_CLASSES_SHOULD_THROW_GENERIC_EXCEPTIONS.because(
          "an exception says who must act; RuntimeException and Exception say nothing");

  static final ArchRule NO_GRAB_BAG_NAMES =
      noClasses()
          .should()
          .haveSimpleNameEndingWith("Util")
          .orShould()
          .haveSimpleNameEndingWith("Utils")
          .orShould()
          .haveSimpleNameEndingWith("Helper")
          .orShould()
          .haveSimpleNameEndingWith("Helpers")
          .orShould()
          .haveSimpleNameEndingWith("Manager")
          .because("classes are named by role; a helper lives with its one consumer");
}
