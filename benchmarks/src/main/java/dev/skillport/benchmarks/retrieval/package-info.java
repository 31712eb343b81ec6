/**
 * The skill-retrieval benchmark: how well {@code search_skills} finds the right skill for a task
 * put in the user's words, scored on a query file over a corpus of real skills.
 */
package dev.skillport.benchmarks.retrieval;
