package dev.skillport.server.architecture.violations;

/** Throws an exception that names nobody who must act. */
public final class GenericThrower {
  private GenericThrower() {}

  public static void fail(String why) {
    throw new RuntimeException(why);
  }
}
