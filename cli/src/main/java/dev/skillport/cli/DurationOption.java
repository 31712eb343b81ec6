package dev.skillport.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as an option gives it: a whole number and a unit, {@code s}, {@code m}, {@code h} or
 * {@code d}.
 */
final class DurationOption {
  private static final Pattern FORM = Pattern.compile("([0-9]{1,9})([smhd])");

  private DurationOption() {}

  /**
   * Reads {@code value} of option {@code name}: {@code 90s}, {@code 15m}, {@code 24h}, {@code 30d};
   * positive.
   *
   * @throws StartupFailure (usage) naming the option and the forms it takes
   */
  static Duration parse(String name, String value) {
    Matcher m = FORM.matcher(value == null ? "" : value.trim());
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw StartupFailure.usage(
          name
              + " "
              + value
              + " is not a duration: give a positive whole number with s, m, h or d (30d, 24h)");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
