/**
 * Host adapters: PF4J extension points through which a plugin connects Skillport to a host
 * application (its products, capabilities, main-thread executor and shipped skills).
 */
package dev.skillport.api.host;
