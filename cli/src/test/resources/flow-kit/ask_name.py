import json, os, sys
answers = json.loads(os.environ.get("SKILLPORT_INPUT_RESPONSES") or "{}")
if "name" not in answers:
    question = {"message": "What is your name?", "requestedSchema": {"type": "object",
                "properties": {"name": {"type": "string"}}, "required": ["name"]}}
    print("::ask name elicitation/create " + json.dumps(question), file=sys.stderr)
    sys.exit(0)
answer = answers["name"]
if answer.get("action") != "accept":
    print(json.dumps({"success": False, "message": "no name given"}))
    sys.exit(1)
print(json.dumps({"success": True, "message": "Hello, " + answer["content"]["name"] + "!"}))
