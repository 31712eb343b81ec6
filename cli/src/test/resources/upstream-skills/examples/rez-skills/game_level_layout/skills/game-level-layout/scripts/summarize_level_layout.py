#!/usr/bin/env python3
import json

print(json.dumps({"summary": "Game level layout package active.", "checks": ["scale", "collision", "navmesh"]}))
