import json

print(json.dumps({"success": True, "message": "3 frames", "context": {"frames": [1, 2, 3]}}))
