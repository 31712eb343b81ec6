#!/usr/bin/env python3
"""Computes thumbnail dimensions that fit max_size x max_size and keep the aspect ratio.

Arguments: a JSON object on stdin or --key value flags (stdin wins):
  width, height  source size in pixels (required)
  max_size       bounding box side, default 256
  allow_upscale  true to enlarge images smaller than the box, default false
Prints one JSON object on stdout; exit code 1 on failure.
"""
import json
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


def positive_int(args, key, default=None):
    value = args.get(key, default)
    if value is None:
        raise ValueError("missing argument: " + key)
    value = int(value)
    if value < 1:
        raise ValueError(key + " must be at least 1")
    return value


def main():
    try:
        args = read_args(sys.argv[1:])
        width = positive_int(args, "width")
        height = positive_int(args, "height")
        max_size = positive_int(args, "max_size", 256)
        upscale = str(args.get("allow_upscale", False)).lower() in ("true", "1", "yes")
        scale = max_size / max(width, height)
        if scale > 1 and not upscale:
            scale = 1.0
        result = {
            "success": True,
            "width": max(1, round(width * scale)),
            "height": max(1, round(height * scale)),
            "scale": round(scale, 4),
        }
        print(json.dumps(result))
        return 0
    except ValueError as e:
        print(json.dumps({"success": False, "message": str(e)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
