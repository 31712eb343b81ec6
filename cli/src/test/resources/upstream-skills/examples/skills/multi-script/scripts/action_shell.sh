#!/usr/bin/env bash
# Shell action script example.
echo '{"success": true, "message": "Executed Shell action"}'
