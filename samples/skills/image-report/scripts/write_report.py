#!/usr/bin/env python3
"""Renders a scan result as a Markdown report, using assets/report-template.md.

Arguments: a JSON object on stdin (images is a list, so flags cannot carry it), for example
  {"title": "Holiday photos", "images": [{"path": "a.png", "bytes": 1200}]}
--title TITLE may be given as a flag when stdin has no title.
Prints one JSON object on stdout: {"success": true, "markdown": "..."}; exit code 1 on failure.
"""
import json
import os
import sys

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets",
                        "report-template.md")


def read_args(argv):
    """--key value flags, then the JSON object on stdin (typed values win over flag strings)."""
    args = {}
    if len(argv) % 2:
        raise ValueError("flag without value: " + argv[-1])
    for i in range(0, len(argv), 2):
        if not argv[i].startswith("--"):
            raise ValueError("unexpected argument: " + argv[i])
        args[argv[i][2:].replace("-", "_")] = argv[i + 1]
    if not sys.stdin.isatty():
        text = sys.stdin.read().strip()
        if text:
            args.update(json.loads(text))
    return args


def main():
    try:
        args = read_args(sys.argv[1:])
        images = args.get("images")
        if not isinstance(images, list):
            raise ValueError("images must be a list of {path, bytes}")
        rows = "\n".join("| %s | %d |" % (i["path"], int(i["bytes"])) for i in images)
        with open(TEMPLATE, encoding="utf-8") as f:
            template = f.read()
        markdown = template.format(
            title=args.get("title", "Image report"),
            rows=rows,
            count=len(images),
            total=sum(int(i["bytes"]) for i in images),
        )
        print(json.dumps({"success": True, "markdown": markdown}))
        return 0
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(json.dumps({"success": False, "message": str(e)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
