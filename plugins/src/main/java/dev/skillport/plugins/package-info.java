/**
 * Host-adapter plugins: PF4J jars found in the plugin folders, loaded with the platform's API,
 * Jackson and SLF4J taken from the server, their adapters started and checked against the skills a
 * session loads.
 *
 * <p>Entry points: {@link dev.skillport.plugins.PluginHost} (loads the plugins of {@link
 * dev.skillport.plugins.PluginFolders}), {@link dev.skillport.plugins.HostAdapters} (the started
 * adapters a session's skills are checked against) and {@link
 * dev.skillport.plugins.AdapterSettings} (the operator's per-adapter settings).
 */
package dev.skillport.plugins;
