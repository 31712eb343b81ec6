/**
 * Host-adapter plugins: PF4J jars found in the plugin folders, loaded with the platform's API,
 * Jackson and SLF4J taken from the server, their adapters started and checked against the skills a
 * session loads.
 */
package dev.skillport.server.plugins;
