package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayBufferTest {

  @Test
  void after_otherStreamsAndPrimingEvents_onlyThatStreamsMessagesAfterTheId() {
    ReplayBuffer buffer = new ReplayBuffer(10);
    buffer.add(1, "g1", null);
    buffer.add(2, "g1", "a");
    buffer.add(3, "p2", "x");
    buffer.add(4, "g1", "b");
    buffer.add(5, "g1", "c");

    assertThat(buffer.after("g1", 2))
        .extracting(ReplayBuffer.Event::data)
        .containsExactly("b", "c");
    assertThat(buffer.after("g1", 1))
        .extracting(ReplayBuffer.Event::id)
        .containsExactly(2L, 4L, 5L);
    assertThat(buffer.streamOf(3)).hasValue("p2");
    assertThat(buffer.streamOf(9)).isEmpty();
  }

  @Test
  void add_overCount_dropsTheOldest() {
    ReplayBuffer buffer = new ReplayBuffer(2);
    buffer.add(1, "g", "a");
    buffer.add(2, "g", "b");
    buffer.add(3, "g", "c");

    assertThat(buffer.streamOf(1)).isEmpty();
    assertThat(buffer.after("g", 0)).extracting(ReplayBuffer.Event::data).containsExactly("b", "c");
  }

  @Test
  void add_overCharacters_dropsTheOldestButKeepsTheNewest() {
    ReplayBuffer buffer = new ReplayBuffer(100, 5);
    buffer.add(1, "g", "abc");
    buffer.add(2, "g", "de");
    buffer.add(3, "g", "fghijk");

    assertThat(buffer.after("g", 0)).extracting(ReplayBuffer.Event::data).containsExactly("fghijk");
  }

  @Test
  void add_zeroCapacity_keepsNothing() {
    ReplayBuffer buffer = new ReplayBuffer(0);
    buffer.add(1, "g", "a");

    assertThat(buffer.streamOf(1)).isEmpty();
  }
}
