/**
 * The page for people: the catalog, each skill, recent calls, jobs and workflow runs (live), host
 * adapters and the server, rendered on the server from Pebble templates and served on the HTTP port
 * beside the MCP endpoint; also the same view as an MCP App ({@code ui://} resource).
 *
 * <p>Entry points: {@link dev.skillport.web.WebRoutes} (the HTTP paths), {@link
 * dev.skillport.web.CatalogApp} (the MCP App resource), {@link dev.skillport.web.SiteSources} (what
 * the server lends the page to read) and {@link dev.skillport.web.MetricsExposition} (what {@code
 * /metrics} serves, implemented by the server's metrics).
 */
package dev.skillport.web;
