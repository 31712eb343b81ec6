package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry of one workstation: a folder only its owner may enter ({@code 0700}), one file per
 * instance ({@code instances/ID.json}, {@code 0600}). An entry is written to a temporary file of
 * the same folder and moved over the old one atomically, so a reader sees the old entry or the new
 * one, never half of one. A folder that another user owns, or that others may write, is refused: an
 * instance of another user cannot register.
 */
public final class FolderRegistry implements InstanceRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(FolderRegistry.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<PosixFilePermission> OWNER_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final String SUFFIX = ".json";

  private final Path root;
  private final Path instances;

  private FolderRegistry(Path root) {
    this.root = root;
    this.instances = root.resolve("instances");
  }

  /**
   * Opens (creating it when missing) the registry folder {@code root}.
   *
   * @throws IOException when it cannot be created, or another user owns it or may write it
   */
  public static FolderRegistry open(Path root) throws IOException {
    FolderRegistry registry = new FolderRegistry(root.toAbsolutePath().normalize());
    registry.ensureFolder(registry.root);
    registry.ensureFolder(registry.instances);
    return registry;
  }

  /** The folder (the gateway's lock and log live in it too). */
  public Path root() {
    return root;
  }

  private void ensureFolder(Path dir) throws IOException {
    boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    if (!Files.isDirectory(dir)) {
      try {
        if (posix) {
          Files.createDirectories(dir.getParent());
          Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        } else {
          Files.createDirectories(dir);
        }
      } catch (FileAlreadyExistsException e) {
        // made by another instance at the same moment
      }
    }
    if (!posix) {
      return;
    }
    PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
    UserPrincipal me =
        dir.getFileSystem()
            .getUserPrincipalLookupService()
            .lookupPrincipalByName(System.getProperty("user.name"));
    UserPrincipal owner = view.getOwner();
    if (!owner.equals(me)) {
      throw new IOException(
          "the gateway registry " + dir + " belongs to " + owner.getName() + ", not to " + me);
    }
    Set<PosixFilePermission> perms = view.readAttributes().permissions();
    if (!perms.equals(OWNER_DIR)) {
      // Only the owner reaches here: narrowing is safe, and a folder others could write is not.
      view.setPermissions(OWNER_DIR);
    }
  }

  @Override
  public void put(InstanceEntry entry) throws IOException {
    ensureFolder(instances);
    Path target = file(entry.id());
    Path temp = instances.resolve("." + entry.id() + "." + UUID.randomUUID() + ".tmp");
    byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(entry.toJson(JSON));
    try {
      if (temp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(temp, PosixFilePermissions.asFileAttribute(OWNER_FILE));
      }
      Files.write(temp, bytes);
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public void remove(String id) throws IOException {
    if (InstanceEntry.validId(id)) {
      Files.deleteIfExists(file(id));
    }
  }

  @Override
  public List<InstanceEntry> list() throws IOException {
    List<InstanceEntry> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(instances, "*" + SUFFIX)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (name.startsWith(".")) {
          continue;
        }
        try {
          JsonNode node = JSON.readTree(Files.readAllBytes(f));
          InstanceEntry entry = InstanceEntry.fromJson(node);
          if ((entry.id() + SUFFIX).equals(name)) {
            out.add(entry);
          } else {
            LOG.warn("registry entry {} names instance {}: ignored", f, entry.id());
          }
        } catch (NoSuchFileException e) {
          // removed while listed
        } catch (IOException | IllegalArgumentException e) {
          LOG.warn("registry entry {} cannot be read ({}): ignored", f, e.getMessage());
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    out.sort(Comparator.comparing(InstanceEntry::id));
    return out;
  }

  private Path file(String id) {
    return instances.resolve(id + SUFFIX);
  }

  @Override
  public String toString() {
    return root().toString();
  }
}
