import json

print(json.dumps(["pSphere1", "pCube1"]))
