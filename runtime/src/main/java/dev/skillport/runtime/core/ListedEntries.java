package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.SessionState;
import java.util.List;

/**
 * The entries a session or a stateless request lists, as the MCP surface renders them. The core
 * tools answer with tools as they are listed, so a tool reads the same in {@code load_skill} as in
 * {@code tools/list}; the rendering stays where every other wire object is made.
 */
public interface ListedEntries {
  /** What a session with {@code view} lists now, in listing order. */
  List<ListedTool> session(Catalog catalog, SessionView view);

  /** What a stateless request with {@code state} lists now, in listing order. */
  List<ListedTool> stateless(Catalog catalog, SessionState state);

  /**
   * A listed tool as the core tools show it: its listed name, description, schemas and annotations,
   * without the listing's {@code _meta}; a new object the caller may add to.
   */
  ObjectNode shown(ListedTool tool);

  /**
   * A tool that is not listed as the stateless {@code load_skill} shows it: {@code callName}, its
   * description, its full declared schemas and its annotations; a new object the caller may add to.
   */
  ObjectNode shown(String callName, ToolSpec tool);
}
