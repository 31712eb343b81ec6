/**
 * The gateway: one MCP endpoint over every Skillport instance of a workstation (decision 0057).
 * Instances register in a registry folder and heartbeat with their catalog digest; the gateway
 * probes them, evicts the silent ones, indexes every instance's skills with the ranking of {@code
 * search_skills} and routes {@code describe}, {@code load_skill} and {@code call} to the instance
 * that owns the skill or tool, as stateless 2026-07-28 requests. It runs no tool itself.
 *
 * <p>Entry points: {@link dev.skillport.gateway.Gateway} (the probes and the capability index) and
 * {@link dev.skillport.gateway.GatewayMcp} (its MCP surface), which {@code skillport gateway}
 * composes with the HTTP transport; {@link dev.skillport.gateway.FolderRegistry} and {@link
 * dev.skillport.gateway.InstanceEntry} (the registry); {@link
 * dev.skillport.gateway.GatewayMembership} and {@link dev.skillport.gateway.CatalogDigest} (an
 * instance's registration, heartbeat and gateway election, which {@code serve --gateway} starts);
 * {@link dev.skillport.gateway.InstanceClient} (the client of instances). The rest is the module's
 * own.
 */
package dev.skillport.gateway;
