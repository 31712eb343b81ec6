package dev.skillport.bridge;

import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.runtime.process.ChildEnvironment;
import dev.skillport.runtime.secrets.Redactor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The environment a bridged server runs with: the {@link ChildEnvironment#BASE} variables of the
 * server and {@code PYTHONDONTWRITEBYTECODE=1}, then exactly what {@code mcp.yaml} names, each
 * {@code ${VAR}} replaced by the server's value of {@code VAR}. Every value passed under a secret
 * name, or taken from a secret-named variable, becomes a secret the redactor masks in everything
 * the server sends, logs or stores.
 */
final class BridgeEnvironment {
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private BridgeEnvironment() {}

  /** A variable {@code mcp.yaml} refers to is not set in the server's environment. */
  static final class MissingVariableException extends Exception {
    private static final long serialVersionUID = 1L;

    MissingVariableException(String key, String variable) {
      super(
          "env "
              + key
              + " refers to ${"
              + variable
              + "}, which is not set in the server's environment");
    }
  }

  /** Whether {@code value} holds a {@code ${VAR}} reference. */
  static boolean hasReference(String value) {
    return REFERENCE.matcher(value).find();
  }

  /** The child's environment; secret values are registered with {@code redactor} first. */
  static Map<String, String> of(McpBridgeSpec spec, Map<String, String> server, Redactor redactor)
      throws MissingVariableException {
    Map<String, String> env = new LinkedHashMap<>(ChildEnvironment.base(server));
    // A bridge's folder is trusted whole: Python must not write its bytecode cache into it.
    env.put("PYTHONDONTWRITEBYTECODE", "1");
    for (Map.Entry<String, String> e : spec.env().entrySet()) {
      String key = e.getKey();
      boolean secret = redactor.isSecretName(key);
      Matcher m = REFERENCE.matcher(e.getValue());
      StringBuilder value = new StringBuilder();
      List<String> parts = new ArrayList<>();
      while (m.find()) {
        String variable = m.group(1);
        String resolved = server.get(variable);
        if (resolved == null) {
          throw new MissingVariableException(key, variable);
        }
        secret |= redactor.isSecretName(variable);
        parts.add(resolved);
        m.appendReplacement(value, Matcher.quoteReplacement(resolved));
      }
      m.appendTail(value);
      if (secret) {
        parts.forEach(redactor::addSecret);
        redactor.addSecret(value.toString());
      }
      env.put(key, value.toString());
    }
    return env;
  }
}
