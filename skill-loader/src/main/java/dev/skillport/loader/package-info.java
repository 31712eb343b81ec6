/**
 * The skill loader's entry point: {@link dev.skillport.loader.SkillLoader} turns skill roots into
 * validated, resolved skills plus diagnostics.
 */
package dev.skillport.loader;
