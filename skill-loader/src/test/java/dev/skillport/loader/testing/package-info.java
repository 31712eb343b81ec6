/**
 * Test support shared by the loader's tests: a builder that writes real skill folders, and the
 * repository files used as a corpus.
 */
package dev.skillport.loader.testing;
