package dev.skillport.registry.search;

import dev.skillport.model.skill.Skill;

/** A ranked search result; {@code score} is 0 when browsing without a query. */
public record SkillHit(Skill skill, double score) {}
