#!/usr/bin/env python3
import json

print(json.dumps({"summary": "FX cache review package active.", "cache_versions": []}))
