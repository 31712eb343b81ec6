package dev.skillport.mcp.planted;

import dev.skillport.model.skill.Layer;

/** A protocol-layer class that reaches into the skill model, which the layer must not know. */
public final class McpUsingSkillTypes {
  private McpUsingSkillTypes() {}

  public static String layerName(Layer layer) {
    return layer.name();
  }
}
