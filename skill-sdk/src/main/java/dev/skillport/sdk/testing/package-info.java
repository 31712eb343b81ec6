/** Loads a skill folder in-process and calls its tools, for the skill's own unit tests. */
package dev.skillport.sdk.testing;
