import json
import sys

from dcc_mcp_core.skill import read_params

params = read_params()
print(json.dumps({
    "success": False,
    "message": "Object '%s' is locked" % params["name"],
    "error": "locked",
    "prompt": "Unlock it with unlock_object first.",
    "context": {"name": params["name"]},
}))
sys.exit(1)
