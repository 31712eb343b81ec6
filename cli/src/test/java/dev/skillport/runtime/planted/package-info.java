/** A planted violation of the runtime rule, for ArchitectureRulesViolationTest. */
package dev.skillport.runtime.planted;
