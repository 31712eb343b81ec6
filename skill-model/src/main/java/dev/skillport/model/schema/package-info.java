/**
 * JSON Schema helpers shared by the loader and the runtime: {@link
 * dev.skillport.model.schema.SchemaPrecheck}, a one-sided shortcut in front of the full validator.
 */
package dev.skillport.model.schema;
