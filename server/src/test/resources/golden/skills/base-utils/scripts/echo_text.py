import json
import sys

print(json.dumps({"success": True, "message": json.load(sys.stdin).get("text", "")}))
