"""YAML for skill scripts without PyYAML: PyYAML's safe loader and dumper when importable, else a
reader and writer of the block subset skill files use.

The subset: block mappings and sequences by indentation, ``- `` items (also holding mappings),
plain, single- and double-quoted scalars, ``|`` and ``>`` block scalars, flow ``[...]`` and
``{...}`` collections of scalars, ``#`` comments, one document (``---`` ignored). Scalars resolve
as YAML 1.2's core schema does: null, booleans, integers, floats, else strings. Anything outside
the subset is a ``ValueError`` naming the line.
"""

import json
import re

__all__ = ["dumps", "loads"]

try:  # PyYAML where the interpreter has it: full YAML
    import yaml as _pyyaml
except ImportError:  # pragma: no cover - depends on the interpreter
    _pyyaml = None

_INT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


def _scalar(text):
    t = text.strip()
    if t == "" or t in ("~", "null", "Null", "NULL"):
        return None
    if t in ("true", "True", "TRUE"):
        return True
    if t in ("false", "False", "FALSE"):
        return False
    if _INT.match(t):
        return int(t)
    if _FLOAT.match(t):
        return float(t)
    if t in (".inf", "+.inf"):
        return float("inf")
    if t == "-.inf":
        return float("-inf")
    if t.startswith('"'):
        return json.loads(t)
    if t.startswith("'"):
        if not t.endswith("'") or len(t) < 2:
            raise ValueError("unclosed single-quoted scalar: %s" % t)
        return t[1:-1].replace("''", "'")
    if t.startswith("[") or t.startswith("{"):
        return _flow(t)
    return t


def _split_flow(inner):
    parts, depth, quote, cur = [], 0, None, ""
    for ch in inner:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            cur += ch
        elif ch in "[{":
            depth += 1
            cur += ch
        elif ch in "]}":
            depth -= 1
            cur += ch
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _flow(t):
    if t.startswith("[") and t.endswith("]"):
        return [_scalar(p) for p in _split_flow(t[1:-1])]
    if t.startswith("{") and t.endswith("}"):
        out = {}
        for p in _split_flow(t[1:-1]):
            key, sep, value = _split_key(p.strip())
            if not sep:
                raise ValueError("flow mapping entry without ':': %s" % p)
            out[_scalar(key)] = _scalar(value)
        return out
    raise ValueError("unclosed flow collection: %s" % t)


def _strip_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


def _split_key(text):
    """Splits ``key: value`` at the first ``:`` followed by a space or the end, outside quotes."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and i == 0:
            quote = ch
        elif ch == ":" and (i + 1 == len(text) or text[i + 1] == " "):
            return text[:i].strip(), ":", text[i + 1 :].strip()
    return text, "", ""


class _Reader(object):
    def __init__(self, text):
        self.raw = text.splitlines()
        self.lines = []  # (indent, content, number)
        for n, line in enumerate(self.raw, 1):
            if line.strip() in ("---", "...") and not line.startswith(" "):
                continue
            content = _strip_comment(line)
            if content.strip():
                self.lines.append((len(content) - len(content.lstrip(" ")), content.strip(), n))
        self.i = 0

    def parse(self):
        if not self.lines:
            return None
        value = self.block(self.lines[0][0])
        if self.i < len(self.lines):
            raise ValueError("line %d: unexpected indentation" % self.lines[self.i][2])
        return value

    def block(self, indent):
        if self.lines[self.i][1].startswith("- ") or self.lines[self.i][1] == "-":
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent):
        items = []
        while self.i < len(self.lines):
            ind, content, n = self.lines[self.i]
            if ind < indent or not (content.startswith("- ") or content == "-"):
                if ind > indent:
                    raise ValueError("line %d: unexpected indentation" % n)
                break
            rest = content[1:].strip()
            self.i += 1
            if not rest:
                items.append(self.nested(indent))
            elif _split_key(rest)[1] and not rest.startswith(("[", "{", '"', "'")):
                # "- key: value" opens a mapping whose keys line up after "- ".
                self.lines.insert(self.i, (ind + 2, rest, n))
                items.append(self.mapping(ind + 2))
            else:
                items.append(self.value(rest, indent))
        return items

    def mapping(self, indent):
        out = {}
        while self.i < len(self.lines):
            ind, content, n = self.lines[self.i]
            if ind < indent:
                break
            if ind > indent:
                raise ValueError("line %d: unexpected indentation" % n)
            if content.startswith("- "):
                break
            key, sep, rest = _split_key(content)
            if not sep:
                raise ValueError("line %d: expected 'key: value'" % n)
            self.i += 1
            key = _scalar(key)
            out[key] = self.nested(indent) if not rest else self.value(rest, indent)
        return out

    def nested(self, indent):
        if self.i < len(self.lines):
            ind, content, _ = self.lines[self.i]
            if ind > indent or (ind == indent and content.startswith("- ")):
                return self.block(ind)
        return None

    def value(self, rest, indent):
        if rest[:1] in ("|", ">"):
            return self.block_scalar(rest, indent)
        if rest[:1] in ("&", "*", "!"):
            raise ValueError("anchors, aliases and tags need PyYAML: %s" % rest)
        return _scalar(rest)

    def block_scalar(self, header, indent):
        # Block scalars keep their lines verbatim: read them from the raw text.
        start = self.lines[self.i - 1][2]  # the header's line number (1-based)
        body = []
        n = start
        while n < len(self.raw):
            line = self.raw[n]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
                break
            body.append(line)
            n += 1
        while self.i < len(self.lines) and self.lines[self.i][2] <= n:
            self.i += 1
        while body and not body[-1].strip():
            body.pop()
        widths = [len(l) - len(l.lstrip(" ")) for l in body if l.strip()]
        cut = min(widths) if widths else 0
        lines = [l[cut:] for l in body]
        if header.startswith(">"):
            text, para = [], []
            for l in lines:
                if l.strip():
                    para.append(l.strip())
                else:
                    text.append(" ".join(para))
                    para = []
            text.append(" ".join(para))
            joined = "\n".join(text)
        else:
            joined = "\n".join(lines)
        return joined if header.endswith("-") else joined + "\n"


def loads(text):
    """The value of one YAML document."""
    if _pyyaml is not None:
        return _pyyaml.safe_load(text)
    return _Reader(text).parse()


_PLAIN = re.compile(r"^[A-Za-z_./][A-Za-z0-9_ ./()-]*$")


def _dump_scalar(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.match(text) and not text.endswith(" ") and _scalar(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _dump(value, indent, out):
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            out.append(pad + "{}")
        for k, v in value.items():
            key = _dump_scalar(k)
            if isinstance(v, (dict, list)) and v:
                out.append("%s%s:" % (pad, key))
                _dump(v, indent + 2, out)
            else:
                out.append("%s%s: %s" % (pad, key, _inline(v)))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append(pad + "[]")
        for v in value:
            if isinstance(v, (dict, list, tuple)) and v:
                sub = []
                _dump(v, indent + 2, sub)
                out.append(pad + "- " + sub[0][indent + 2 :])
                out.extend(sub[1:])
            else:
                out.append(pad + "- " + _inline(v))
    else:
        out.append(pad + _dump_scalar(value))


def _inline(v):
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, (list, tuple)):
        return "[]"
    return _dump_scalar(v)


def dumps(value):
    """``value`` (dicts, lists, scalars) as block YAML."""
    if _pyyaml is not None:
        return _pyyaml.safe_dump(value, sort_keys=False, allow_unicode=True)
    out = []
    _dump(value, 0, out)
    return "\n".join(out) + "\n"
