package dev.skillport.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresLocationTest {
  @Test
  void parse_fullUrl_givesTheDriverUrlWithoutThePasswordFile() {
    PostgresLocation at =
        PostgresLocation.parse(
            "postgresql://db.example:5433/fleet?user=sp&sslmode=require&passwordFile=/run/pw",
            Map.of());
    assertThat(at.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:5433/fleet?sslmode=require");
    assertThat(at.user()).isEqualTo("sp");
    assertThat(at.passwordFile()).isEqualTo(Path.of("/run/pw"));
  }

  @Test
  void parse_userFromEnvironment_whenTheUrlNamesNone() {
    assertThat(PostgresLocation.parse("postgresql://h/db", Map.of("PGUSER", "ops")).user())
        .isEqualTo("ops");
  }

  @Test
  void parse_passwordInTheUrl_isRefused() {
    assertThatThrownBy(() -> PostgresLocation.parse("postgresql://u:secret@h/db", Map.of()))
        .hasMessageContaining("carries a password")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> PostgresLocation.parse("postgresql://h/db?password=secret", Map.of()))
        .hasMessageContaining("carries a password")
        .hasMessageNotContaining("secret");
  }

  @Test
  void parse_noDatabaseOrOtherScheme_isRefused() {
    assertThatThrownBy(() -> PostgresLocation.parse("postgresql://h", Map.of()))
        .hasMessageContaining("names no database");
    assertThatThrownBy(() -> PostgresLocation.parse("mysql://h/db", Map.of()))
        .hasMessageContaining("not a postgresql:// URL");
  }
}
