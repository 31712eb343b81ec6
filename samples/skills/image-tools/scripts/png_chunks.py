#!/usr/bin/env python3
"""Lists the chunks of a PNG file: type, length, and whether the CRC matches.

Arguments: a JSON object on stdin or --key value flags (stdin wins):
  path   the PNG file (required)
  limit  the most chunks to list, default 100
Prints one JSON object on stdout; exit code 1 on failure.
"""
import json
import struct
import sys
import zlib


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
        limit = int(args.get("limit", 100))
        chunks = []
        truncated = False
        with open(path, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                raise ValueError("not a PNG file: " + path)
            while True:
                header = f.read(8)
                if len(header) < 8:
                    break
                length, kind = struct.unpack(">I4s", header)
                data = f.read(length)
                crc = f.read(4)
                ok = len(crc) == 4 and struct.unpack(">I", crc)[0] == zlib.crc32(kind + data)
                if len(chunks) == limit:
                    truncated = True
                    break
                chunks.append({"type": kind.decode("latin-1"), "length": length, "crc_ok": ok})
                if kind == b"IEND":
                    break
        print(json.dumps({"success": True, "path": path, "chunks": chunks, "truncated": truncated}))
        return 0
    except (OSError, ValueError, struct.error) as e:
        print(json.dumps({"success": False, "message": str(e)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
