package dev.skillport.samples.pythonhost;

import org.pf4j.Plugin;

/**
 * The plugin's lifecycle class. The work happens in {@link PythonHostAdapter}, which the server
 * starts and stops itself.
 */
public class PythonHostPlugin extends Plugin {}
