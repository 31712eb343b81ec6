/**
 * Skills shipped inside the server: their folders as class path resources, unpacked at start and
 * served at scope {@code system}, and the Java handlers their tools are bound to. Entry point:
 * {@link dev.skillport.bundled.BundledSkills}.
 */
package dev.skillport.bundled;
