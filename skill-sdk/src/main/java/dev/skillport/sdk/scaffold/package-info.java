/** Writes the starting files of a new skill folder that loads without a diagnostic. */
package dev.skillport.sdk.scaffold;
