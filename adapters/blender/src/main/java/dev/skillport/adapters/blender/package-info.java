/**
 * The Blender host adapter: a PF4J plugin that keeps one headless Blender running for the server,
 * runs {@code thread-affinity: main} script tools on Blender's main thread with {@code bpy}, and
 * ships the {@code blender-scene} skill.
 */
package dev.skillport.adapters.blender;
