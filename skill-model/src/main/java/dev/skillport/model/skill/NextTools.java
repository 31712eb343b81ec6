package dev.skillport.model.skill;

import java.util.List;

/** Tools suggested to the agent after a call, by outcome. */
public record NextTools(List<String> onSuccess, List<String> onFailure) {
  public static final NextTools NONE = new NextTools(List.of(), List.of());

  public NextTools {
    onSuccess = Immutables.list(onSuccess);
    onFailure = Immutables.list(onFailure);
  }

  public boolean isEmpty() {
    return onSuccess.isEmpty() && onFailure.isEmpty();
  }
}
