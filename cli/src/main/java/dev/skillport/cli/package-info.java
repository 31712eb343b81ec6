/**
 * The {@code skillport} command line: {@code serve}, {@code validate}, {@code list}, {@code new}
 * and {@code trust-bridge}, with stdout written only through {@link dev.skillport.cli.CliOutput}.
 * Entry points: {@link dev.skillport.cli.Main} (the runnable jar's main class) and {@link
 * dev.skillport.cli.SkillportCommand} (the command tree).
 */
package dev.skillport.cli;
