# A small stdio MCP server for the bridge trust tests. On start it appends a line to the file
# BRIDGE_MARKER names, so a test can tell whether it ran; its one tool answers with the greeting
# of the module next to it, so an edit to either file shows in the answer.
import json
import os
import sys

import greeting

marker = os.environ.get("BRIDGE_MARKER")
if marker:
    with open(marker, "a", encoding="utf-8") as f:
        f.write("started %d\n" % os.getpid())


def out(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(id_, value):
    out({"jsonrpc": "2.0", "id": id_, "result": value})


for line in sys.stdin:
    if not line.strip():
        continue
    m = json.loads(line)
    if "id" not in m:
        continue
    method = m.get("method")
    if method == "initialize":
        result(m["id"], {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                         "serverInfo": {"name": "python-fixture", "version": "1"}})
    elif method == "tools/list":
        result(m["id"], {"tools": [{"name": "greet", "description": "Greets",
                                    "inputSchema": {"type": "object",
                                                    "properties": {"who": {"type": "string"}}}}]})
    elif method == "tools/call":
        who = m.get("params", {}).get("arguments", {}).get("who", "")
        result(m["id"], {"content": [{"type": "text", "text": greeting.greet(who)}]})
    elif method == "ping":
        result(m["id"], {})
    else:
        out({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "Method not found"}})
