package dev.skillport.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.model.status.ServerIntrospection;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.jobs.JobRecord;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the page reads from a running server, each read when a page is rendered.
 *
 * @param name the server's name, shown in titles
 * @param catalog the catalog now served
 * @param introspection status, recent calls, tool metrics, plugin diagnostics
 * @param recentJobs the newest jobs a viewer may see ({@link Principal#sees(String)}), newest
 *     first, at most the given count
 * @param recentRuns the newest workflow runs a viewer may see ({@code workflows_get_status} shape),
 *     newest first, at most the given count
 * @param seesRun whether a viewer may see the run of the given id
 * @param ready what {@code /readyz} says
 * @param masking what takes secrets out of text shown
 * @param instance the label of the instance serving the page ({@code --instance}), shown in its
 *     header, or null
 */
public record SiteSources(
    String name,
    Supplier<Catalog> catalog,
    ServerIntrospection introspection,
    BiFunction<Principal, Integer, List<JobRecord>> recentJobs,
    BiFunction<Principal, Integer, List<JsonNode>> recentRuns,
    BiPredicate<Principal, String> seesRun,
    BooleanSupplier ready,
    Masking masking,
    String instance) {
  public SiteSources {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(introspection, "introspection");
    Objects.requireNonNull(recentJobs, "recentJobs");
    Objects.requireNonNull(recentRuns, "recentRuns");
    Objects.requireNonNull(seesRun, "seesRun");
    Objects.requireNonNull(ready, "ready");
    Objects.requireNonNull(masking, "masking");
  }
}
