/**
 * The Java side of the guide's example skill ({@code samples/guide/greeting}): a tool handler
 * written with the skill SDK, shown in {@code docs/writing-skills.md}.
 */
package dev.skillport.samples.guide;
