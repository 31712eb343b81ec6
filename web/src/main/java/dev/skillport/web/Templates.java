package dev.skillport.web;

import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The page templates (Pebble, from this package's {@code templates} folder on the class path):
 * every value printed is HTML-escaped unless a template marks it {@code raw}, which only the
 * rendered instructions and the inlined style and script of the MCP App are; an unknown variable
 * fails the render instead of printing nothing.
 */
final class Templates {
  private final PebbleEngine engine;

  Templates() {
    ClasspathLoader loader = new ClasspathLoader(Templates.class.getClassLoader());
    loader.setPrefix("dev/skillport/web/templates");
    loader.setSuffix(".peb");
    engine =
        new PebbleEngine.Builder()
            .loader(loader)
            .autoEscaping(true)
            .defaultEscapingStrategy("html")
            .strictVariables(true)
            .newLineTrimming(true)
            .build();
  }

  /** Renders template {@code name} with {@code model}. */
  String render(String name, Map<String, Object> model) {
    PebbleTemplate template = engine.getTemplate(name);
    StringWriter out = new StringWriter(16 * 1024);
    try {
      template.evaluate(out, model);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return out.toString();
  }
}
