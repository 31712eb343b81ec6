#!/usr/bin/env python3
"""Reads an image's format, width, height and size from its header (PNG, JPEG, GIF).

Arguments: a JSON object on stdin or --key value flags (stdin wins): path (required).
Prints one JSON object on stdout; exit code 1 on failure.
"""
import json
import os
import struct
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


def png_size(head):
    # IHDR is the first chunk: width and height are its first two big-endian ints.
    return struct.unpack(">II", head[16:24])


def gif_size(head):
    return struct.unpack("<HH", head[6:10])


def jpeg_size(f):
    f.seek(2)
    while True:
        marker = f.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            raise ValueError("no JPEG frame header found")
        length = struct.unpack(">H", f.read(2))[0]
        # SOF0..SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
        if 0xC0 <= marker[1] <= 0xCF and marker[1] not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">xHH", f.read(5))
            return width, height
        f.seek(length - 2, os.SEEK_CUR)


def main():
    try:
        path = read_args(sys.argv[1:]).get("path")
        if not path:
            raise ValueError("missing argument: path")
        with open(path, "rb") as f:
            head = f.read(32)
            if head.startswith(b"\x89PNG\r\n\x1a\n"):
                fmt, (width, height) = "png", png_size(head)
            elif head[:6] in (b"GIF87a", b"GIF89a"):
                fmt, (width, height) = "gif", gif_size(head)
            elif head.startswith(b"\xff\xd8"):
                fmt, (width, height) = "jpeg", jpeg_size(f)
            else:
                raise ValueError("not a PNG, JPEG or GIF file: " + path)
        print(json.dumps({"success": True, "path": path, "format": fmt, "width": width,
                          "height": height, "bytes": os.path.getsize(path)}))
        return 0
    except (OSError, ValueError, struct.error) as e:
        print(json.dumps({"success": False, "message": str(e)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
