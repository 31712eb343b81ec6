package dev.skillport.runtime;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A call the server cannot serve because the client did not declare a capability it needs (a tool
 * that runs only as a task, called by a client without the Tasks extension): a protocol error, not
 * a tool failure.
 */
public final class CapabilityRequiredException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient ObjectNode required;

  /**
   * @param message what is missing, for the client
   * @param required the missing capabilities, shaped like the client's capabilities object
   */
  public CapabilityRequiredException(String message, ObjectNode required) {
    super(message);
    this.required = Objects.requireNonNull(required, "required").deepCopy();
  }

  /**
   * The refusal of a call to {@code tool}, which runs only as a task, from a client that did not
   * declare the tasks extension {@code extension}.
   */
  public static CapabilityRequiredException taskOnly(String tool, String extension) {
    ObjectNode required = JsonNodeFactory.instance.objectNode();
    required.putObject("extensions").putObject(extension);
    return new CapabilityRequiredException(
        "Missing required client capability: tool '"
            + tool
            + "' runs only as a task; declare the "
            + extension
            + " extension",
        required);
  }

  /** The missing capabilities, shaped like the client's capabilities object. */
  public ObjectNode required() {
    return required.deepCopy();
  }
}
