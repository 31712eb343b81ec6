package dev.skillport.bundled;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.diagnostic.Diagnostic;

/** The JSON shape of one diagnostic in the bundled tools' results; unknown parts are left out. */
final class DiagnosticJson {
  private DiagnosticJson() {}

  /** Writes {@code d} into {@code item} and returns it. */
  static ObjectNode write(Diagnostic d, ObjectNode item) {
    item.put("code", d.code().name());
    item.put("severity", d.severity().label());
    item.put("message", d.message());
    if (d.skill() != null) {
      item.put("skill", d.skill());
    }
    if (d.file() != null) {
      item.put("file", d.file().toString());
    }
    if (d.line() > 0) {
      item.put("line", d.line());
    }
    if (d.column() > 0) {
      item.put("column", d.column());
    }
    if (d.hint() != null) {
      item.put("hint", d.hint());
    }
    return item;
  }
}
