/**
 * Diagnostics: problems found while reading skills, reported as data with stable codes rather than
 * thrown.
 */
package dev.skillport.model.diagnostic;
