/**
 * The plugin SPI, in sub-packages by subject: what a host-adapter or handler plugin compiles
 * against. Entry points: {@link dev.skillport.api.host.HostAdapter} (a host application's executor)
 * and {@link dev.skillport.api.tool.ToolHandler} (code that answers a tool call).
 */
package dev.skillport.api;
