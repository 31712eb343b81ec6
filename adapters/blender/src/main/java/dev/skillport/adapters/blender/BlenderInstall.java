package dev.skillport.adapters.blender;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A Blender executable that answered {@code --version} as Blender does.
 *
 * @param executable the program, absolute
 * @param version the version it reported, for example {@code 3.4.1}
 * @param source where the path came from ({@code --blender}, {@code SKILLPORT_BLENDER}, {@code
 *     PATH}), for messages
 */
record BlenderInstall(Path executable, String version, String source) {
  BlenderInstall {
    Objects.requireNonNull(executable, "executable");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(source, "source");
  }
}
