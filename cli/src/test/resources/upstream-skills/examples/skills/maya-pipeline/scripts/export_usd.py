"""Export scene to USD format (simulation — actual Maya API not required).

Demonstrates a script that depends on another skill (usd-tools) for validation.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    """Simulate USD export and optionally validate."""
    parser = argparse.ArgumentParser(description="Export scene to USD format.")
    parser.add_argument("--input", required=True, dest="input_file")
    parser.add_argument("--output", default=None, dest="output_file")
    parser.add_argument("--validate", action="store_true")
    args = parser.parse_args()

    output_file = args.output_file
    if not output_file:
        output_file = str(Path(args.input_file).with_suffix(".usda"))

    usda_content = f"""\
#usda 1.0
(
    defaultPrim = "World"
    doc = "Exported from {args.input_file}"
)

def Xform "World"
{{
    def Mesh "ExportedGeometry"
    {{
    }}
}}
"""
    Path(output_file).write_text(usda_content, encoding="utf-8")

    result = {
        "success": True,
        "message": f"Exported {args.input_file} -> {output_file}",
        "context": {
            "input": args.input_file,
            "output": output_file,
            "format": "usda",
            "validated": args.validate,
        },
    }

    if args.validate:
        result["context"]["validation_note"] = "In production, this calls usd-tools/scripts/validate.py"

    print(json.dumps(result))


if __name__ == "__main__":
    main()
