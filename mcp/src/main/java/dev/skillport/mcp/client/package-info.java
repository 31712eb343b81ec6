/**
 * The client side of MCP over a stream pair (a local server's stdin and stdout): the handshake of
 * either protocol era, requests with timeouts, cancellation and progress, notifications, and the
 * limits that keep a misbehaving server from hurting its client.
 */
package dev.skillport.mcp.client;
