package dev.skillport.workflows;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cancellation of a run or of one step attempt. Cancelling a token cancels its children and
 * interrupts the threads working under it, so a blocking Java handler stops and a script is killed;
 * a thread is interrupted only while it is registered, never after it moved on.
 */
public final class CancelToken {
  private final CancelToken parent;
  private final Set<Thread> threads = new HashSet<>();
  private final List<CancelToken> children = new ArrayList<>();
  private String reason;

  private CancelToken(CancelToken parent) {
    this.parent = parent;
  }

  static CancelToken root() {
    return new CancelToken(null);
  }

  /** A child token, cancelled at once when this one already is. */
  CancelToken child() {
    CancelToken child = new CancelToken(this);
    String already;
    synchronized (this) {
      already = reason;
      if (already == null) {
        children.add(child);
      }
    }
    if (already != null) {
      child.cancel(already);
    }
    return child;
  }

  /** Cancels this token and its children; the first reason wins. */
  void cancel(String why) {
    List<CancelToken> toCancel;
    synchronized (this) {
      if (reason != null) {
        return;
      }
      reason = why;
      threads.forEach(Thread::interrupt);
      toCancel = List.copyOf(children);
    }
    toCancel.forEach(c -> c.cancel(why));
  }

  synchronized boolean isCancelled() {
    return reason != null;
  }

  synchronized String reason() {
    return reason;
  }

  /** Forgets this token in its parent (once its work is over). */
  void detach() {
    if (parent != null) {
      synchronized (parent) {
        parent.children.remove(this);
      }
    }
  }

  /**
   * Registers the current thread until the returned registration closes; closing it clears an
   * interrupt this token caused, so the caller checks the tokens instead.
   */
  Registration enter() {
    Thread current = Thread.currentThread();
    synchronized (this) {
      threads.add(current);
      if (reason != null) {
        current.interrupt();
      }
    }
    return () -> {
      synchronized (this) {
        threads.remove(current);
        if (reason != null) {
          Thread.interrupted();
        }
      }
    };
  }

  /** A thread's registration with a token. */
  @FunctionalInterface
  interface Registration {
    void close();
  }
}
