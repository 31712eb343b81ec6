/**
 * Safe YAML reading: hostile input (alias bombs, deep nesting, huge files, duplicate keys) is
 * rejected cheaply, and every value keeps its source position for diagnostics.
 */
package dev.skillport.loader.yaml;
