/**
 * The MCP surface of Skillport and the composition of a running server, in sub-packages by concern.
 * Entry points: {@link dev.skillport.server.serve.SkillportServer} (a server composed from a {@link
 * dev.skillport.server.serve.ServeConfig}) and {@link dev.skillport.server.app.SkillportService}
 * (listings and the call router, the one place a call's outcome becomes its wire result).
 */
package dev.skillport.server;
