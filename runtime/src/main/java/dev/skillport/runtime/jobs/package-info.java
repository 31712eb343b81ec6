/**
 * Asynchronous tool calls: the job lifecycle, a bounded worker pool, and the {@link
 * dev.skillport.runtime.jobs.JobStore} SPI that keeps job records across restarts.
 */
package dev.skillport.runtime.jobs;
