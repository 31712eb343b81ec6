/**
 * Who a request acts for, and the one rule that decides whether it may see or change a piece of
 * state (a session, job, task, workflow run, input round or audit entry) that another request made.
 */
package dev.skillport.api.owner;
