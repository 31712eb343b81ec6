/**
 * The authoring API for Java tools: handler registration, typed arguments and result builders.
 * Entry points: {@link dev.skillport.sdk.ToolHandlers} and, for tests, {@link
 * dev.skillport.sdk.testing.SkillTestKit}.
 */
package dev.skillport.sdk;
