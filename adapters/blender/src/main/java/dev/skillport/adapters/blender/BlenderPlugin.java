package dev.skillport.adapters.blender;

import org.pf4j.Plugin;

/**
 * The plugin's lifecycle class. The work happens in {@link BlenderAdapter}, which the server
 * configures, starts and stops itself.
 */
public class BlenderPlugin extends Plugin {}
