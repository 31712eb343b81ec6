/**
 * Redaction: which names and values are secret, and the one {@link
 * dev.skillport.runtime.secrets.Redactor} every output channel (the MCP wire, served skill files,
 * the Skills extension, diagnostics, logs, audit lines, captured stderr) passes its text through.
 */
package dev.skillport.runtime.secrets;
