/**
 * A class planted in the protocol layer's namespace that breaks its dependency rule, so the rule is
 * shown to reject it. Test code only; never on the production class path.
 */
package dev.skillport.mcp.planted;
