/** Test support shared by the loader's tests: a builder that writes real skill folders. */
package dev.skillport.loader.testing;
