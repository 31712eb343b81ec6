#!/usr/bin/env bash
# Summarises a directory tree: file count and bytes per extension, as one JSON object.
# Arguments: --path DIR, or a JSON object {"path": "DIR"} on stdin when no flag is given.
# Other --key value flags are ignored. Exit code 1 on failure.
set -euo pipefail

path=""
if [ "$#" -eq 0 ] && [ ! -t 0 ]; then
  # Flat string values only: {"path": "..."} is all this tool takes.
  path=$(tr -d '\n' | sed -n 's/.*"path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
fi
while [ "$#" -gt 0 ]; do
  case "$1" in
    --path) path="${2:-}"; shift 2 ;;
    --*) shift 2 || shift ;;
    *) printf '{"success": false, "message": "unexpected argument: %s"}\n' "$1"; exit 1 ;;
  esac
done

if [ -z "$path" ] || [ ! -d "$path" ]; then
  printf '{"success": false, "message": "not a directory: %s"}\n' "$path"
  exit 1
fi

find "$path" -type f -printf '%s %f\n' | awk -v root="$path" '
  {
    size = $1; name = substr($0, index($0, " ") + 1)
    ext = "(none)"
    n = split(name, parts, ".")
    if (n > 1 && parts[1] != "") ext = tolower(parts[n])
    files[ext]++; bytes[ext] += size; total_files++; total_bytes += size
  }
  END {
    gsub(/\\/, "\\\\", root); gsub(/"/, "\\\"", root)
    printf "{\"success\": true, \"path\": \"%s\", \"files\": %d, \"bytes\": %d, \"extensions\": {", root, total_files, total_bytes
    sep = ""
    for (e in files) {
      printf "%s\"%s\": {\"files\": %d, \"bytes\": %d}", sep, e, files[e], bytes[e]
      sep = ", "
    }
    print "}}"
  }'
