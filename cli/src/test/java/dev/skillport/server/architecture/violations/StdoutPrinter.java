package dev.skillport.server.architecture.violations;

/** Writes to both standard streams directly. */
public final class StdoutPrinter {
  private StdoutPrinter() {}

  public static void print(String text) {
    System.out.println(text);
    System.err.println(text);
  }
}
