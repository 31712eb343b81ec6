/** The authoring API for Java tools: handler registration, typed arguments and result builders. */
package dev.skillport.sdk;
