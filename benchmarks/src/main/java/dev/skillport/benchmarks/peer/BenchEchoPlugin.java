package dev.skillport.benchmarks.peer;

import org.pf4j.Plugin;

/** The lifecycle class of the benchmark plugin {@link BenchFixture#writePlugin} writes. */
public class BenchEchoPlugin extends Plugin {}
