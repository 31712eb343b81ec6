/**
 * MCP resources: skill files and declared skill resources of loaded skills, resources of Java
 * {@link dev.skillport.api.resource.ResourceProvider}s, templates, subscriptions and their
 * notifications.
 */
package dev.skillport.server.resources;
