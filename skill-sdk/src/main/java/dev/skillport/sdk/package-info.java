/**
 * The authoring API for Java tools: handler registration, typed arguments and result builders,
 * against {@code platform-api} alone (a skill's tests use {@code SkillTestKit} from the {@code
 * skill-testkit} module). Entry points: {@link dev.skillport.sdk.ToolHandlers} and {@link
 * dev.skillport.sdk.Arguments}.
 */
package dev.skillport.sdk;
