#!/usr/bin/env python3
"""Lists the PNG, JPEG and GIF files in a folder with their size in bytes.

Arguments: a JSON object on stdin or --key value flags (stdin wins):
  folder     the folder to scan (required)
  recursive  true to descend into sub-folders, default false
Prints one JSON object on stdout; exit code 1 on failure.
"""
import json
import os
import sys

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif"}


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
        folder = args.get("folder")
        if not folder or not os.path.isdir(folder):
            raise ValueError("not a folder: " + str(folder))
        recursive = str(args.get("recursive", False)).lower() in ("true", "1", "yes")
        images = []
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")) if recursive else []
            for name in sorted(filenames):
                if os.path.splitext(name)[1].lower() in IMAGE_EXTENSIONS:
                    path = os.path.join(dirpath, name)
                    images.append({"path": path, "bytes": os.path.getsize(path)})
        print(json.dumps({"success": True, "folder": folder, "images": images}))
        return 0
    except (OSError, ValueError) as e:
        print(json.dumps({"success": False, "message": str(e)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
