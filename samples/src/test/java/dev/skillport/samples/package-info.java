/** Checks that the sample skills load cleanly and that their scripts run. */
package dev.skillport.samples;
