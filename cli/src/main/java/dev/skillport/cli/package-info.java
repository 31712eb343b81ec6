/**
 * The {@code skillport} command line: {@code validate} and {@code list} over skill folders, with
 * stdout written only through {@link dev.skillport.cli.CliOutput}.
 */
package dev.skillport.cli;
