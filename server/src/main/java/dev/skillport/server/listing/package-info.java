/**
 * The {@code tools/list} wire: tool, group-stub and skill-stub entries rendered once per catalog
 * generation and shared by every session's listing, with its pages and cursors. Entry point: {@link
 * dev.skillport.server.listing.ToolListing}.
 */
package dev.skillport.server.listing;
