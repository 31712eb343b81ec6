package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class StateSignerTest {
  private static final Clock NOW =
      Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC);

  private final StateSigner signer =
      StateSigner.of("a-shared-secret-of-enough-length-0123456789", NOW);

  private String token() {
    ObjectNode payload = JsonNodeFactory.instance.objectNode().put("tool", "ask_name");
    return signer.sign("request-state", payload, Duration.ofMinutes(5));
  }

  @Test
  void verify_genuineToken_givesItsPayload() {
    assertThat(signer.verify("request-state", token()))
        .hasValueSatisfying(p -> assertThat(p.path("tool").asText()).isEqualTo("ask_name"));
  }

  @Test
  void verify_signatureTextChangedOnlyInTheBitsADecoderIgnores_isRefused() {
    String token = token();
    // 32 MAC bytes are 43 base64 characters; the last holds 4 bits of the MAC and 2 spare bits.
    char last = token.charAt(token.length() - 1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char sameMac = alphabet.charAt(alphabet.indexOf(last) ^ 1);
    String altered = token.substring(0, token.length() - 1) + sameMac;

    assertThat(java.util.Base64.getUrlDecoder().decode(altered.substring(altered.indexOf('.') + 1)))
        .as("both texts decode to the same bytes")
        .isEqualTo(
            java.util.Base64.getUrlDecoder().decode(token.substring(token.indexOf('.') + 1)));
    assertThat(signer.verify("request-state", altered)).isEmpty();
  }

  @Test
  void verify_otherPurposeOrChangedPayload_isRefused() {
    String token = token();
    String payload = token.substring(0, token.indexOf('.'));
    String changed = (payload.charAt(0) == 'e' ? 'f' : 'e') + token.substring(1);

    assertThat(signer.verify("group-handle", token)).isEmpty();
    assertThat(signer.verify("request-state", changed)).isEmpty();
  }

  @Test
  void foreignKeyId_tokenOfAnotherKey_namesThatKeysId() {
    StateSigner other = StateSigner.of("another-secret-of-enough-length-9876543210", NOW);
    String theirs =
        other.sign("request-state", JsonNodeFactory.instance.objectNode(), Duration.ofMinutes(5));

    assertThat(signer.verify("request-state", theirs)).isEmpty();
    assertThat(signer.foreignKeyId(theirs)).contains(other.keyId());
    assertThat(signer.foreignKeyId(token())).isEmpty();
    assertThat(other.keyId()).isNotEqualTo(signer.keyId()).hasSize(16);
    assertThat(StateSigner.of("a-shared-secret-of-enough-length-0123456789", NOW).keyId())
        .isEqualTo(signer.keyId());
  }
}
