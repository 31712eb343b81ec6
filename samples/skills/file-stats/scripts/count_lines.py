#!/usr/bin/env python3
"""Counts lines, words and bytes of a text file.

Arguments come as a JSON object on stdin or as --key value flags (stdin wins):
  path      the file to read (required)
  encoding  text encoding, default utf-8
Prints one JSON object on stdout; exit code 1 on failure.
"""
import json
import os
import sys


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
        path = args.get("path")
        if not path:
            raise ValueError("missing argument: path")
        encoding = args.get("encoding", "utf-8")
        with open(path, "r", encoding=encoding, newline="") as f:
            text = f.read()
        result = {
            "success": True,
            "path": path,
            "lines": len(text.splitlines()),
            "words": len(text.split()),
            "characters": len(text),
            "bytes": os.path.getsize(path),
        }
        print(json.dumps(result))
        return 0
    except (OSError, ValueError, UnicodeDecodeError) as e:
        print(json.dumps({"success": False, "message": str(e)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
