"""``validate_skill(path)``: a skill folder checked against the Agent Skills rules and the tool
declarations Skillport reads, as a report of issues (severity, category, message).

The checks: ``SKILL.md`` with front matter; ``name`` (lower-case letters, digits and single
hyphens, at most 64 characters, the folder's name) and ``description`` (at most 1024 characters);
a ``tools.yaml`` (or the ``tools`` key of the front matter) that reads as YAML, each tool with a
``name`` and a script that exists under the folder. The server's own loader is the authority
(``skillport validate``); this is the part a script can check by itself.
"""

import os
import re

from . import _yaml

__all__ = ["SkillValidationIssue", "SkillValidationReport", "validate_skill"]

_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class SkillValidationIssue(object):
    def __init__(self, severity, category, message):
        self.severity = severity
        self.category = category
        self.message = message

    def to_dict(self):
        return {"severity": self.severity, "category": self.category, "message": self.message}

    def __repr__(self):
        return "SkillValidationIssue(%s, %s: %s)" % (self.severity, self.category, self.message)


class SkillValidationReport(object):
    def __init__(self, skill_dir, issues):
        self.skill_dir = skill_dir
        self.issues = list(issues)

    @property
    def has_errors(self):
        return any(i.severity == "error" for i in self.issues)

    @property
    def has_warnings(self):
        return any(i.severity == "warning" for i in self.issues)

    @property
    def is_clean(self):
        return not self.issues

    def to_dict(self):
        return {
            "skill_dir": self.skill_dir,
            "is_clean": self.is_clean,
            "has_errors": self.has_errors,
            "issues": [i.to_dict() for i in self.issues],
        }


def _front_matter(text):
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return "\n".join(lines[1:i])
    return None


def validate_skill(skill_dir):
    """A ``SkillValidationReport`` for the skill folder ``skill_dir``."""
    root = os.path.abspath(str(skill_dir))
    issues = []

    def add(severity, category, message):
        issues.append(SkillValidationIssue(severity, category, message))

    skill_md = os.path.join(root, "SKILL.md")
    if not os.path.isfile(skill_md):
        add("error", "structure", "SKILL.md is missing")
        return SkillValidationReport(root, issues)
    with open(skill_md, encoding="utf-8") as f:
        matter = _front_matter(f.read())
    if matter is None:
        add("error", "frontmatter", "SKILL.md does not start with a '---' front matter block")
        return SkillValidationReport(root, issues)
    try:
        meta = _yaml.loads(matter) or {}
    except Exception as e:
        add("error", "frontmatter", "front matter is not YAML: %s" % e)
        return SkillValidationReport(root, issues)
    if not isinstance(meta, dict):
        add("error", "frontmatter", "front matter must be a mapping")
        return SkillValidationReport(root, issues)
    name = meta.get("name")
    if not name:
        add("error", "frontmatter", "name is missing")
    elif not isinstance(name, str) or len(name) > 64 or not _NAME.match(name):
        add("error", "frontmatter", "name %r must be lower-case letters, digits and single hyphens, at most 64" % name)
    elif name != os.path.basename(root):
        add("warning", "frontmatter", "name %r differs from the folder's name %r" % (name, os.path.basename(root)))
    description = meta.get("description")
    if not description:
        add("error", "frontmatter", "description is missing")
    elif len(str(description)) > 1024:
        add("error", "frontmatter", "description is longer than 1024 characters")
    tools = meta.get("tools")
    tools_file = os.path.join(root, "tools.yaml")
    if os.path.isfile(tools_file):
        try:
            with open(tools_file, encoding="utf-8") as f:
                declared = _yaml.loads(f.read()) or {}
            tools = declared.get("tools") if isinstance(declared, dict) else declared
        except Exception as e:
            add("error", "tools", "tools.yaml is not YAML: %s" % e)
            tools = None
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, dict) or not tool.get("name"):
            add("error", "tools", "tool #%d has no name" % (i + 1))
            continue
        script = tool.get("source_file") or tool.get("script")
        if script and not os.path.isfile(os.path.join(root, script)):
            add("error", "tools", "tool %r names %s, which does not exist" % (tool["name"], script))
    return SkillValidationReport(root, issues)
