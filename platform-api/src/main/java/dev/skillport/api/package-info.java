/**
 * The contract every other module and every plugin builds on, in sub-packages by subject. Entry
 * points: {@link dev.skillport.api.skill.Skill} (what a skill package declares) and {@link
 * dev.skillport.api.tool.ToolHandler} (code that answers a tool call).
 */
package dev.skillport.api;
