package dev.skillport.server.architecture.violations;

import dev.skillport.server.architecture.violations.other.CyclicB;

/** Uses {@link CyclicB}, which uses this class back from another package. */
public final class CyclicA {
  private CyclicA() {}

  public static int next(int n) {
    return n <= 0 ? 0 : CyclicB.next(n - 1);
  }
}
