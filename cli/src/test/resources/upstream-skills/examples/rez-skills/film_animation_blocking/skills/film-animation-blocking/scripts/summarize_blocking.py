#!/usr/bin/env python3
import json

print(json.dumps({"summary": "Animation blocking package active.", "next": ["review poses", "make playblast"]}))
