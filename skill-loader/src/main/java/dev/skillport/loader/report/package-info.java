/** Collecting diagnostics for one skill, with strict mode applied in one place. */
package dev.skillport.loader.report;
