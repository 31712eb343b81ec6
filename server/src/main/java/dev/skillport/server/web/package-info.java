/**
 * The page for people: the catalog, each skill, recent calls, jobs and workflow runs (live), host
 * adapters and the server, rendered on the server from Pebble templates and served on the HTTP port
 * beside the MCP endpoint; also the same view as an MCP App ({@code ui://} resource).
 */
package dev.skillport.server.web;
