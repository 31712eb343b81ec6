package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A folder several server instances share (a network or local file system) so that a task started
 * on one can be read, answered and cancelled through any: each instance keeps its own job store and
 * also publishes every record of its jobs here ({@code <id>.json}, replaced atomically); another
 * instance asked about a job it does not run reads the record here, and leaves a request for the
 * instance that runs it: {@code <id>.cancel}, or the client's answers in {@code
 * <id>.answers/<uuid>.json}. The running instance picks requests up within a poll interval ({@link
 * JobScheduler}).
 *
 * <p>Only job ids of the scheduler's own form (a UUID) name files, so a client's task id cannot
 * reach outside the folder.
 */
public final class SharedTaskFolder {
  private static final Logger LOG = LoggerFactory.getLogger(SharedTaskFolder.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final Path dir;

  private SharedTaskFolder(Path dir) {
    this.dir = dir;
  }

  /** The shared folder {@code dir}, created when missing. */
  public static SharedTaskFolder open(Path dir) throws IOException {
    Files.createDirectories(Objects.requireNonNull(dir, "dir"));
    if (!Files.isWritable(dir)) {
      throw new IOException(dir + " is not writable");
    }
    return new SharedTaskFolder(dir);
  }

  /** The folder. */
  public Path dir() {
    return dir;
  }

  /** Whether {@code id} has the form of a job id (only those name files). */
  static boolean valid(String id) {
    return id != null && ID.matcher(id).matches();
  }

  /** Publishes the current record of a job this instance runs. */
  void publish(JobRecord job) {
    if (!valid(job.id())) {
      return;
    }
    try {
      Path tmp = dir.resolve("." + job.id() + "." + UUID.randomUUID() + ".tmp");
      Files.write(tmp, JSON.writeValueAsBytes(JobRecordCodec.write(job)));
      move(tmp, dir.resolve(job.id() + ".json"));
    } catch (IOException e) {
      LOG.warn("job {} could not be published to {}: {}", job.id(), dir, e.toString());
    }
  }

  /** The record another instance published, if any. */
  Optional<JobRecord> find(String id) {
    if (!valid(id)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          JobRecordCodec.read(JSON.readTree(Files.readAllBytes(dir.resolve(id + ".json")))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      LOG.debug("shared job {} unreadable: {}", id, e.toString());
      return Optional.empty();
    }
  }

  /** Asks the instance running {@code id} to cancel it. */
  void requestCancel(String id) {
    if (!valid(id)) {
      return;
    }
    try {
      Files.write(dir.resolve(id + ".cancel"), new byte[0]);
    } catch (IOException e) {
      LOG.warn("cancel request for job {} not written: {}", id, e.toString());
    }
  }

  /** Whether another instance asked to cancel {@code id}. */
  boolean cancelRequested(String id) {
    return valid(id) && Files.exists(dir.resolve(id + ".cancel"));
  }

  /** Hands the client's answers to the instance running {@code id}. */
  void requestAnswer(String id, JsonNode responses) {
    if (!valid(id)) {
      return;
    }
    try {
      Path answers = Files.createDirectories(dir.resolve(id + ".answers"));
      String name = UUID.randomUUID().toString();
      Path tmp = answers.resolve("." + name + ".tmp");
      Files.write(tmp, JSON.writeValueAsBytes(responses));
      move(tmp, answers.resolve(name + ".json"));
    } catch (IOException e) {
      LOG.warn("answers for job {} not written: {}", id, e.toString());
    }
  }

  /** Takes (and removes) the answers other instances left for {@code id}. */
  List<JsonNode> takeAnswers(String id) {
    List<JsonNode> out = new ArrayList<>();
    Path answers = dir.resolve(id + ".answers");
    if (!valid(id) || !Files.isDirectory(answers)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(answers, "*.json")) {
      for (Path file : files) {
        try {
          out.add(JSON.readTree(Files.readAllBytes(file)));
          Files.deleteIfExists(file);
        } catch (IOException e) {
          LOG.debug("answer file {} unreadable: {}", file, e.toString());
        }
      }
    } catch (IOException e) {
      LOG.debug("answers of job {} unreadable: {}", id, e.toString());
    }
    return out;
  }

  /** Removes what the folder holds about {@code id} but its record (its requests, answered). */
  void clearRequests(String id) {
    if (!valid(id)) {
      return;
    }
    try {
      Files.deleteIfExists(dir.resolve(id + ".cancel"));
      Path answers = dir.resolve(id + ".answers");
      if (Files.isDirectory(answers)) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(answers)) {
          for (Path file : files) {
            Files.deleteIfExists(file);
          }
        }
        Files.deleteIfExists(answers);
      }
    } catch (IOException e) {
      LOG.debug("requests of job {} not cleared: {}", id, e.toString());
    }
  }

  /** Removes the record of a job deleted from its instance's store. */
  void delete(String id) {
    if (!valid(id)) {
      return;
    }
    clearRequests(id);
    try {
      Files.deleteIfExists(dir.resolve(id + ".json"));
    } catch (IOException e) {
      LOG.debug("shared job {} not deleted: {}", id, e.toString());
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
