/**
 * Multi round-trip requests of the stateless protocol era: what a request asks the client, and the
 * signed state that carries earlier answers from one attempt to the next, on any server instance.
 */
package dev.skillport.server.rounds;
