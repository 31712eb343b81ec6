/**
 * The REST skill API ({@code /v1/*}) and its OpenAPI document: the server's skills and tools called
 * over plain HTTP through the same call path as MCP's {@code tools/call}.
 */
package dev.skillport.server.rest;
