/**
 * Classes that break the architecture rules on purpose; imported only by the rule tests, never by
 * the production import.
 */
package dev.skillport.server.architecture.violations;
