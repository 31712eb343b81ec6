package dev.skillport.server.serve;

import dev.skillport.registry.search.SemanticSearch;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.StateSigner;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.server.app.ListingPolicy;
import dev.skillport.server.app.SkillportService;
import dev.skillport.workflows.MemoryWorkflowStore;
import dev.skillport.workflows.WorkflowStore;
import java.util.Objects;

/**
 * How a server runs what it serves: scripts, jobs, guardrails, workflow runs, and what stateless
 * clients list. The caller that makes one owns it and closes its runner and scheduler after the
 * server; {@link SkillportServer#launch} makes an in-memory one of its own when given none.
 *
 * @param scripts how script tools run
 * @param jobs where async calls become jobs
 * @param guard the guardrails every call passes
 * @param workflowStore where workflow runs are kept
 * @param listingPolicy what stateless clients list
 * @param autoListingThreshold the most tools {@link ListingPolicy#AUTO} lists in full
 * @param signer signs the state handed to stateless clients
 * @param redactor masks secrets in everything the server writes out: the wire, served files, the
 *     audit trail
 * @param search ranks search results by meaning beside words (lexical only when off)
 */
public record ServeExecution(
    ScriptToolRunner scripts,
    JobScheduler jobs,
    CallGuard guard,
    WorkflowStore workflowStore,
    ListingPolicy listingPolicy,
    int autoListingThreshold,
    StateSigner signer,
    Redactor redactor,
    SemanticSearch search)
    implements AutoCloseable {

  private static final int MAX_STDOUT = 1 << 20;
  private static final int MAX_STDERR = 64 << 10;

  public ServeExecution {
    Objects.requireNonNull(scripts, "scripts");
    Objects.requireNonNull(jobs, "jobs");
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(workflowStore, "workflowStore");
    Objects.requireNonNull(listingPolicy, "listingPolicy");
    Objects.requireNonNull(signer, "signer");
    Objects.requireNonNull(redactor, "redactor");
    Objects.requireNonNull(search, "search");
  }

  /**
   * An execution with a redactor of its own that knows only the documented secret names, and
   * lexical search.
   */
  public ServeExecution(
      ScriptToolRunner scripts,
      JobScheduler jobs,
      CallGuard guard,
      WorkflowStore workflowStore,
      ListingPolicy listingPolicy,
      int autoListingThreshold,
      StateSigner signer) {
    this(
        scripts,
        jobs,
        guard,
        workflowStore,
        listingPolicy,
        autoListingThreshold,
        signer,
        new Redactor(),
        SemanticSearch.off());
  }

  /**
   * Everything in memory: scripts time out after {@code config}'s default, four job workers, no
   * guard, {@link ListingPolicy#AUTO}, a random signing key.
   */
  public static ServeExecution inMemory(ServeConfig config) {
    return new ServeExecution(
        new ScriptToolRunner(config.scriptTimeout(), MAX_STDOUT, MAX_STDERR),
        new JobScheduler(new MemoryJobStore(), SkillportService.DEFAULT_JOB_WORKERS),
        CallGuard.NONE,
        new MemoryWorkflowStore(),
        ListingPolicy.AUTO,
        SkillportService.DEFAULT_AUTO_THRESHOLD,
        StateSigner.random());
  }

  /** This execution listing {@code policy} to stateless clients, with {@code autoThreshold}. */
  public ServeExecution withListing(ListingPolicy policy, int autoThreshold) {
    return new ServeExecution(
        scripts, jobs, guard, workflowStore, policy, autoThreshold, signer, redactor, search);
  }

  /** This execution ranking search results through {@code semantic} too. */
  public ServeExecution withSearch(SemanticSearch semantic) {
    return new ServeExecution(
        scripts,
        jobs,
        guard,
        workflowStore,
        listingPolicy,
        autoListingThreshold,
        signer,
        redactor,
        semantic);
  }

  /** Closes the scheduler (jobs are marked interrupted) and then the scripts still running. */
  @Override
  public void close() {
    search.close();
    jobs.close();
    scripts.close();
  }
}
