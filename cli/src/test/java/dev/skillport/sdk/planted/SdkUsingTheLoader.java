package dev.skillport.sdk.planted;

import dev.skillport.loader.LoaderOptions;

/** An SDK class that reaches into the loader, which a skill's code must not need. */
public final class SdkUsingTheLoader {
  private SdkUsingTheLoader() {}

  public static boolean strict(LoaderOptions options) {
    return options.strict();
  }
}
