package dev.skillport.store.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.workflows.WorkflowStore;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workflow runs in {@code skillport_workflow_runs} and the outputs of finished idempotent steps in
 * {@code skillport_workflow_steps}; a step output, once recorded, is kept (the first one wins, so
 * two instances finishing the same step agree on its output).
 */
final class PostgresWorkflowStore implements WorkflowStore {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresWorkflowStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PostgresStore store;

  PostgresWorkflowStore(PostgresStore store) {
    this.store = store;
  }

  @Override
  public void saveRun(String runId, JsonNode run) {
    update(
        "INSERT INTO skillport_workflow_runs (id, updated_at, record) VALUES (?, now(), ?::jsonb)"
            + " ON CONFLICT (id) DO UPDATE SET updated_at = now(), record = EXCLUDED.record",
        runId,
        run);
  }

  @Override
  public Optional<JsonNode> run(String runId) {
    List<JsonNode> found =
        query("SELECT id, record::text FROM skillport_workflow_runs WHERE id = ?", runId);
    return found.stream().findFirst();
  }

  @Override
  public List<JsonNode> runs() {
    return query("SELECT id, record::text FROM skillport_workflow_runs ORDER BY id", null);
  }

  @Override
  public Optional<JsonNode> completedStep(String key) {
    return query("SELECT key, output::text FROM skillport_workflow_steps WHERE key = ?", key)
        .stream()
        .findFirst();
  }

  @Override
  public void recordStep(String key, JsonNode output) {
    update(
        "INSERT INTO skillport_workflow_steps (key, recorded_at, output) VALUES (?, now(),"
            + " ?::jsonb) ON CONFLICT (key) DO NOTHING",
        key,
        output);
  }

  /** The pool closes with the {@link PostgresStore}. */
  @Override
  public void close() {}

  private void update(String sql, String key, JsonNode doc) {
    try (Connection c = store.connection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, key);
      s.setString(2, JSON.writeValueAsString(doc));
      s.executeUpdate();
    } catch (SQLException e) {
      throw store.failed(e);
    } catch (IOException e) {
      throw new IllegalStateException("workflow document " + key + " cannot be written", e);
    }
  }

  private List<JsonNode> query(String sql, String key) {
    List<JsonNode> out = new ArrayList<>();
    try (Connection c = store.connection();
        PreparedStatement s = c.prepareStatement(sql)) {
      if (key != null) {
        s.setString(1, key);
      }
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          try {
            out.add(JSON.readTree(rs.getString(2)));
          } catch (IOException e) {
            LOG.warn(
                "workflow document {} is damaged and is skipped: {}",
                rs.getString(1),
                e.getMessage());
          }
        }
      }
    } catch (SQLException e) {
      throw store.failed(e);
    }
    return out;
  }
}
