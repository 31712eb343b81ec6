/**
 * Testing a skill folder in its own unit tests, through the server's loader and runtime. Entry
 * point: {@link dev.skillport.testkit.SkillTestKit}.
 */
package dev.skillport.testkit;
