package dev.skillport.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

class BranchConditionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static boolean holds(String rendered) throws TemplateException {
    return BranchCondition.holds(TextNode.valueOf(rendered));
  }

  @Test
  void comparison_numbers_comparedByValue() throws Exception {
    assertThat(holds("3 > 0")).isTrue();
    assertThat(holds("2 == 2.0")).isTrue();
    assertThat(holds("10 <= 9")).isFalse();
    assertThat(holds("-1 < 0")).isTrue();
  }

  @Test
  void comparison_texts_equalityOnlyQuotesOptional() throws Exception {
    assertThat(holds("prod == 'prod'")).isTrue();
    assertThat(holds("\"a b\" != a b")).isFalse();
    assertThatThrownBy(() -> holds("abc > 1")).hasMessageContaining("not numbers");
  }

  @Test
  void truthiness_typedAndTextValues() throws Exception {
    assertThat(BranchCondition.holds(JSON.readTree("true"))).isTrue();
    assertThat(BranchCondition.holds(JSON.readTree("0"))).isFalse();
    assertThat(BranchCondition.holds(JSON.readTree("[]"))).isFalse();
    assertThat(BranchCondition.holds(JSON.readTree("{\"a\":1}"))).isTrue();
    assertThat(BranchCondition.holds(JSON.readTree("null"))).isFalse();
    assertThat(holds(" Off ")).isFalse();
    assertThat(holds("yes")).isTrue();
  }
}
