package dev.skillport.server.architecture.violations.other;

import dev.skillport.server.architecture.violations.CyclicA;

/** Uses {@link CyclicA} back. */
public final class CyclicB {
  private CyclicB() {}

  public static int next(int n) {
    return n <= 0 ? 0 : CyclicA.next(n - 1);
  }
}
