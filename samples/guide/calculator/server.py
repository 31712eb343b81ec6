#!/usr/bin/env python3
"""A minimal MCP server on stdio, with one tool: add.

Newline-delimited JSON-RPC on stdin and stdout, standard library only. Skillport starts it as
the calculator skill's bridge and mounts its tools as calculator__<tool>.
"""
import json
import sys
from decimal import Decimal, InvalidOperation

ADD = {
    "name": "add",
    "description": "Add numbers exactly (decimal arithmetic).",
    "inputSchema": {
        "type": "object",
        "properties": {"numbers": {"type": "array", "items": {"type": "number"}, "minItems": 1}},
        "required": ["numbers"],
    },
}


def answer(request):
    method = request.get("method")
    params = request.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "calculator", "version": "1.0.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [ADD]}
    if method == "tools/call" and params.get("name") == "add":
        try:
            total = sum(Decimal(str(n)) for n in params.get("arguments", {}).get("numbers", []))
        except InvalidOperation:
            return {"content": [{"type": "text", "text": "not a number"}], "isError": True}
        return {"content": [{"type": "text", "text": str(total)}]}
    raise LookupError(method)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if "id" not in request:
            continue  # a notification
        try:
            reply = {"jsonrpc": "2.0", "id": request["id"], "result": answer(request)}
        except LookupError:
            reply = {"jsonrpc": "2.0", "id": request["id"],
                     "error": {"code": -32601, "message": "method not found"}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
