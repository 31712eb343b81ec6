/** A planted violation of the SDK rule, for ArchitectureRulesViolationTest. */
package dev.skillport.sdk.planted;
