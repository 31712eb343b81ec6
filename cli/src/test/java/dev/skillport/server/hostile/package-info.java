/** A running server fed hostile skill folders and hostile clients. */
package dev.skillport.server.hostile;
