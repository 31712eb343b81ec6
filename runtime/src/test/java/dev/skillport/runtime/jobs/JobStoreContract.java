package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link JobStore} does, run against each implementation by a subclass that says how to
 * open one and how to reopen it as a restarted process would.
 */
public abstract class JobStoreContract {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JobStore store;

  /** A new, empty store. */
  protected abstract JobStore open() throws Exception;

  /** The same store as the one just closed, opened again by a process that restarted. */
  protected abstract JobStore reopen() throws Exception;

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  private JobStore store() throws Exception {
    if (store == null) {
      store = open();
    }
    return store;
  }

  private JobStore restarted() throws Exception {
    store().close();
    store = reopen();
    return store;
  }

  /** A job record with every field set, owned by {@code owner}, in {@code status}. */
  protected static JobRecord job(String id, String owner, JobStatus status) {
    JsonNode progress = NODES.objectNode().put("progress", 1).put("total", 2);
    JsonNode result =
        status.terminal()
            ? NODES.objectNode().set("content", NODES.arrayNode().add("done " + id))
            : null;
    JsonNode questions =
        status == JobStatus.RUNNING
            ? NODES.objectNode().set("q1", NODES.objectNode().put("method", "elicitation/create"))
            : null;
    return new JobRecord(
        id,
        "skill.tool",
        "session-1",
        null,
        status,
        T,
        status == JobStatus.PENDING ? null : T.plusSeconds(1),
        status.terminal() ? T.plusSeconds(2) : null,
        null,
        progress,
        status == JobStatus.FAILED ? "it failed" : null,
        result,
        owner,
        questions);
  }

  @Test
  void save_thenFind_returnsEveryField() throws Exception {
    JobRecord running = job("a", "alice", JobStatus.RUNNING);
    store().save(running);
    assertThat(store().find("a")).contains(running);
  }

  @Test
  void save_sameId_replacesTheRecord() throws Exception {
    store().save(job("a", "alice", JobStatus.RUNNING));
    JobRecord done = job("a", "alice", JobStatus.COMPLETED);
    store().save(done);
    assertThat(store().find("a")).contains(done);
    assertThat(store().all()).containsExactly(done);
  }

  @Test
  void find_unknownId_isEmpty() throws Exception {
    assertThat(store().find("nope")).isEmpty();
  }

  @Test
  void all_listsEverySavedRecord() throws Exception {
    List<JobRecord> saved =
        List.of(
            job("a", "alice", JobStatus.PENDING),
            job("b", "bob", JobStatus.FAILED),
            job("c", null, JobStatus.COMPLETED));
    for (JobRecord r : saved) {
      store().save(r);
    }
    assertThat(store().all()).containsExactlyInAnyOrderElementsOf(saved);
  }

  @Test
  void delete_knownThenUnknown_trueThenFalse() throws Exception {
    store().save(job("a", "alice", JobStatus.COMPLETED));
    assertThat(store().delete("a")).isTrue();
    assertThat(store().delete("a")).isFalse();
    assertThat(store().find("a")).isEmpty();
  }

  @Test
  void reopen_afterRestart_keepsRecordsAndListsTheUnfinishedAsOrphans() throws Exception {
    JobRecord running = job("a", "alice", JobStatus.RUNNING);
    JobRecord done = job("b", "bob", JobStatus.COMPLETED);
    store().save(running);
    store().save(done);
    JobStore again = restarted();
    assertThat(again.all()).containsExactlyInAnyOrder(running, done);
    assertThat(again.orphans()).containsExactly(running);
  }

  @Test
  void scheduler_startingOnTheStore_marksOrphansInterrupted() throws Exception {
    store().save(job("a", "alice", JobStatus.RUNNING));
    JobStore again = restarted();
    JobScheduler scheduler = new JobScheduler(again, 1);
    assertThat(scheduler.status("a"))
        .get()
        .extracting(JobRecord::status)
        .isEqualTo(JobStatus.INTERRUPTED);
    assertThat(again.orphans()).isEmpty();
  }
}
