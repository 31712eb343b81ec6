#!/usr/bin/env python3
import json

print(json.dumps({"summary": "Material authoring package active.", "exports": ["basecolor", "roughness", "normal"]}))
