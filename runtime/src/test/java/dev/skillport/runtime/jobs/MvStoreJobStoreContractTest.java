package dev.skillport.runtime.jobs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The job store contract on the embedded store. */
class MvStoreJobStoreContractTest extends JobStoreContract {
  @TempDir Path dir;

  @Override
  protected JobStore open() throws Exception {
    return MvStoreJobStore.open(dir);
  }

  @Override
  protected JobStore reopen() throws Exception {
    return MvStoreJobStore.open(dir);
  }
}
