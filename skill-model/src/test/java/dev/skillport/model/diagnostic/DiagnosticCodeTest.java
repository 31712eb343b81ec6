package dev.skillport.model.diagnostic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DiagnosticCodeTest {

  @Test
  void everyCode_hasAHintThatIsNotItsSummary() {
    assertThat(DiagnosticCode.values())
        .allSatisfy(
            code -> {
              assertThat(code.hint()).as("hint of %s", code).isNotBlank();
              assertThat(code.hint()).as("hint of %s", code).isNotEqualTo(code.summary());
            });
  }

  @Test
  void diagnostic_withoutItsOwnHint_carriesTheCodesHint() {
    Diagnostic bare = Diagnostic.of(DiagnosticCode.NAME_MISMATCH, "x", Path.of("SKILL.md"), 2, 1);
    Diagnostic own = bare.withHint("rename the folder to demo");

    assertThat(bare.hint()).isEqualTo(DiagnosticCode.NAME_MISMATCH.hint());
    assertThat(own.hint()).isEqualTo("rename the folder to demo");
    assertThat(own.withHint(" ").hint()).isEqualTo(DiagnosticCode.NAME_MISMATCH.hint());
    assertThat(bare.format()).endsWith("(" + DiagnosticCode.NAME_MISMATCH.hint() + ")");
  }
}
