package dev.skillport.api.stability;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How far a plugin may rely on a public type of the SPI. Every public type in a package the {@code
 * dev.skillport.api} module exports carries it; a test fails the build for one that does not, so a
 * type cannot become public by accident.
 */
@API(status = API.Status.STABLE, since = "0.1")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface API {
  /** The promise made about the marked type. */
  Status status();

  /** The version in which the type reached its status. */
  String since() default "";

  /** The promises a type of the SPI can carry. */
  enum Status {
    /** Kept compatible within a major version: a plugin compiled against it keeps working. */
    STABLE,
    /** Usable by plugins, but may change in a minor version; the change is noted in the docs. */
    EXPERIMENTAL,
    /** Public only for the server's own modules; a plugin must not use it. */
    INTERNAL
  }
}
