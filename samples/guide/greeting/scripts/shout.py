#!/usr/bin/env python3
"""Greets someone in capitals and attaches the skill's list of greetings.

Reads the arguments as JSON on stdin, reports progress and a log line on stderr, and prints one
JSON result envelope on stdout; its content item is a file of the skill, which the server reads.
"""
import json
import sys


def main():
    args = json.loads(sys.stdin.read() or "{}")
    name = str(args.get("name", "")).strip()
    if not name:
        print(json.dumps({"success": False, "message": "name is empty", "prompt": "Give a name."}))
        return 1
    print("::progress 1 2 composing", file=sys.stderr)
    print("::log info shouting at " + name, file=sys.stderr)
    shout = "HELLO, " + name.upper() + "!"
    print("::progress 2 2 done", file=sys.stderr)
    print(json.dumps({
        "success": True,
        "message": shout,
        "prompt": "Greet the next person with hello.",
        "context": {"name": name},
        "content": [{"type": "resource", "path": "resources/phrases.txt"}],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
