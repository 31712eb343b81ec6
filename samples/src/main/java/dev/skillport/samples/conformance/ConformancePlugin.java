package dev.skillport.samples.conformance;

import org.pf4j.Plugin;

/**
 * The lifecycle class of the {@code mcp-conformance} plugin. Its extensions ({@link
 * ConformanceHandlers}, {@link ConformanceHost}) are created and stopped by the server.
 */
public class ConformancePlugin extends Plugin {}
