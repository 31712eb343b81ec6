#!/usr/bin/env python3
import json

print(json.dumps({"summary": "Layer groups are ready for motion handoff.", "warnings": []}))
