/**
 * The job and workflow stores of a fleet in PostgreSQL: one schema migrated by Flyway, leases
 * renewed by heartbeat, requests between instances handed over through LISTEN/NOTIFY with polling
 * behind it.
 */
package dev.skillport.store.postgres;
