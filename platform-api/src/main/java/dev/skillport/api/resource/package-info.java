/**
 * The resource SPI: Java code that serves dynamic MCP resources and templates next to the files
 * skills declare, and tells the server when they change.
 */
package dev.skillport.api.resource;
