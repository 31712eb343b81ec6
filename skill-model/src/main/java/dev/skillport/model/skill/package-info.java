/** Immutable descriptions of skills and everything a skill package declares. */
package dev.skillport.model.skill;
