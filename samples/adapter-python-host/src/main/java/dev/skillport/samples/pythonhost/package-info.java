/**
 * A sample host adapter: a persistent Python interpreter plays the host application, and tools with
 * {@code thread-affinity: main} run inside it one at a time, as {@code main(**params)}.
 */
package dev.skillport.samples.pythonhost;
