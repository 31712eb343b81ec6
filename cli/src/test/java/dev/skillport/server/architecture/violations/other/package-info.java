/** The other half of a deliberate package cycle for the rule tests. */
package dev.skillport.server.architecture.violations.other;
