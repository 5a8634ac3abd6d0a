"""A hand-written JSON-RPC MCP server over stdio, for what SDK servers refuse to send.

It lists one good tool beside malformed ones, and has tools that hang or kill the process.
"""

from __future__ import annotations

import json
import os
import sys
import time

OPEN = {"type": "object", "properties": {}}
TOOLS = [
    {"name": "good", "description": "Works.", "inputSchema": OPEN},
    {"name": "no_schema", "description": "inputSchema is missing."},
    {
        "name": "bad_schema",
        "description": "Not JSON Schema.",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "nonsense"}}},
    },
    {"name": "hang", "description": "Never answers.", "inputSchema": OPEN},
    {"name": "die", "description": "Exits the process.", "inputSchema": OPEN},
    {"name": "huge", "description": "Answers with a 1 MB line.", "inputSchema": OPEN},
]


def reply(message_id: object, result: object = None, error: object = None) -> None:
    body = {"jsonrpc": "2.0", "id": message_id}
    body.update({"error": error} if error else {"result": result})
    sys.stdout.write(json.dumps(body) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        method, message_id = message.get("method"), message.get("id")
        if message_id is None:
            continue
        if method == "initialize":
            reply(
                message_id,
                {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "raw", "version": "1"},
                },
            )
        elif method == "tools/list":
            reply(message_id, {"tools": TOOLS})
        elif method == "tools/call":
            name = message["params"]["name"]
            if name == "hang":
                time.sleep(3600)
            if name == "die":
                os._exit(1)
            if name == "huge":
                text = "x" * 1_000_000
                reply(message_id, {"content": [{"type": "text", "text": text}], "isError": False})
                continue
            reply(message_id, {"content": [{"type": "text", "text": "fine"}], "isError": False})
        else:
            reply(message_id, error={"code": -32601, "message": "Method not found"})


if __name__ == "__main__":
    main()
