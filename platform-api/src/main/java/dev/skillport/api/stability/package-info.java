/**
 * The stability marks of the plugin SPI: {@link dev.skillport.api.stability.API} says, for each
 * public type of an exported package, whether a plugin may rely on it.
 */
package dev.skillport.api.stability;
