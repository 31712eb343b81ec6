/** Skill folders built to break the loader: special files, huge files, cycles and floods. */
package dev.skillport.loader.hostile;
