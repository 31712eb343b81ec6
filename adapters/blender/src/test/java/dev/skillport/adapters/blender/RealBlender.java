package dev.skillport.adapters.blender;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/**
 * The Blender these tests run against: {@code SKILLPORT_BLENDER}, else {@code blender} on {@code
 * PATH}. Without one a test is skipped, saying why; with {@value #REQUIRED} set to {@code true} (CI
 * sets it after installing Blender) a missing Blender fails the test instead.
 */
public final class RealBlender {
  /** Environment variable that turns "no Blender" from a skip into a failure. */
  public static final String REQUIRED = "SKILLPORT_BLENDER_REQUIRED";

  private static BlenderInstall found;
  private static String missing;

  private RealBlender() {}

  /** The installed Blender, or the calling test is skipped (or failed when one is required). */
  public static synchronized BlenderInstall installOrSkip() {
    if (found == null && missing == null) {
      try {
        found = new BlenderLocator(System.getenv(), Duration.ofSeconds(30)).locate(null);
      } catch (BlenderUnavailableException e) {
        missing = e.getMessage();
      }
    }
    if (found != null) {
      return found;
    }
    if ("true".equalsIgnoreCase(System.getenv(REQUIRED))) {
      fail(REQUIRED + "=true but no usable Blender was found: " + missing);
    }
    Assumptions.abort(
        "skipped: these tests need a real Blender and none was found ("
            + missing
            + "); set "
            + REQUIRED
            + "=true to make this a failure");
    throw new AssertionError("unreachable");
  }
}
