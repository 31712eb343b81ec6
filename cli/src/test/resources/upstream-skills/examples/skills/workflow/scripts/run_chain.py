"""Execute a sequence of dcc-mcp-core actions in order (action chain).

Dispatch strategy:
1. IPC dispatch — if ``DCC_MCP_IPC_ADDRESS`` is set, each step is sent to the
   running DCC server via the DccLink ``IpcChannelAdapter``. This is the
   production path (Maya, Blender, Unreal, etc.). Support was rewired in
   v0.14 (issue #251) together with the removal of ``FramedChannel``.
2. Local ToolDispatcher — fallback for testing without a live DCC server.
   Only actions registered in the local process are available.

Context propagation:
- Each step's output "context" dict is merged into the shared context.
- Use {key} placeholders in params to inject context values.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import Any


def _interpolate(value: Any, context: dict) -> Any:
    """Recursively interpolate {key} placeholders using context."""
    if isinstance(value, str):

        def replace(match: re.Match) -> str:
            key = match.group(1)
            return str(context.get(key, match.group(0)))

        return re.sub(r"\{(\w+)\}", replace, value)
    if isinstance(value, dict):
        return {k: _interpolate(v, context) for k, v in value.items()}
    if isinstance(value, list):
        return [_interpolate(item, context) for item in value]
    return value


def _build_ipc_dispatcher(ipc_address: str):
    """Return a callable that dispatches actions via DccLink IPC.

    The channel name is derived from ``ipc_address`` (expected to be a
    DccLink channel name, e.g. ``dcc-mcp-maya-12345``). Each call sends a
    single ``Call`` frame with a JSON body and waits for a correlated
    ``Reply`` or ``Err`` frame.
    """
    from dcc_mcp_core import DccLinkFrame
    from dcc_mcp_core import IpcChannelAdapter

    def dispatch(action_name: str, params: dict) -> dict:
        channel = IpcChannelAdapter.connect(ipc_address)
        try:
            payload = json.dumps({"action": action_name, "params": params}).encode()
            seq = int(time.time() * 1000) & 0xFFFFFFFFFFFFFFFF
            frame = DccLinkFrame(msg_type="Call", seq=seq, body=payload)
            channel.send_frame(frame)
            reply = channel.recv_frame()
            if reply.msg_type == "Err":
                return {"success": False, "message": reply.body.decode("utf-8", "replace")}
            raw = reply.body
            if isinstance(raw, (bytes, bytearray)):
                return json.loads(raw.decode())
            return json.loads(raw) if isinstance(raw, str) else raw
        finally:
            del channel

    return dispatch


def _build_local_dispatcher():
    """Return a callable that dispatches via a local ToolDispatcher."""
    from dcc_mcp_core import ToolDispatcher
    from dcc_mcp_core import ToolRegistry

    registry = ToolRegistry()
    dispatcher = ToolDispatcher(registry)

    def dispatch(action_name: str, params: dict) -> dict:
        params_json = json.dumps(params)
        raw = dispatcher.dispatch(action_name, params_json)
        output = raw.get("output", "{}")
        if isinstance(output, str):
            try:
                return json.loads(output)
            except json.JSONDecodeError:
                return {"success": False, "message": output}
        return output if isinstance(output, dict) else {"success": False, "message": str(output)}

    return dispatch


def main() -> None:
    parser = argparse.ArgumentParser(description="Run a sequence of actions as a chain.")
    parser.add_argument("--steps", default=None, help="JSON array of step definitions.")
    parser.add_argument("--context", default=None, help="JSON object with initial context values.")
    args = parser.parse_args()

    # Prefer CLI args; fall back to reading the full params JSON from stdin.
    if args.steps is None:
        try:
            raw = sys.stdin.read()
            stdin_params = json.loads(raw) if raw.strip() else {}
        except Exception:
            stdin_params = {}
        steps_str = json.dumps(stdin_params.get("steps", []))
        context_str = json.dumps(stdin_params.get("context", {}))
    else:
        steps_str = args.steps
        context_str = args.context or "{}"

    try:
        steps = json.loads(steps_str)
        context: dict = json.loads(context_str)
    except json.JSONDecodeError as exc:
        print(json.dumps({"success": False, "message": f"Invalid JSON input: {exc}"}))
        sys.exit(1)

    if not isinstance(steps, list) or not steps:
        print(json.dumps({"success": False, "message": "'steps' must be a non-empty JSON array."}))
        sys.exit(1)

    try:
        from dcc_mcp_core import ToolDispatcher  # noqa: F401 — just check import
    except ImportError:
        print(json.dumps({"success": False, "message": "dcc_mcp_core not available. Install the package first."}))
        sys.exit(1)

    # Choose dispatch strategy
    ipc_address = os.environ.get("DCC_MCP_IPC_ADDRESS")
    source = "ipc"
    try:
        if ipc_address:
            dispatch = _build_ipc_dispatcher(ipc_address)
        else:
            dispatch = _build_local_dispatcher()
            source = "local"
    except Exception as exc:
        print(json.dumps({"success": False, "message": f"Failed to initialise dispatcher: {exc}"}))
        sys.exit(1)

    results = []
    chain_success = True
    aborted_at: int | None = None

    for idx, step in enumerate(steps):
        action = step.get("action", "")
        label = step.get("label") or action
        stop_on_failure = step.get("stop_on_failure", True)
        raw_params = step.get("params") or {}

        if not action:
            results.append(
                {
                    "step": idx,
                    "label": label,
                    "action": "(missing)",
                    "success": False,
                    "message": "Step is missing 'action' field.",
                    "duration_ms": 0,
                }
            )
            if stop_on_failure:
                chain_success = False
                aborted_at = idx
                break
            continue

        params = _interpolate(raw_params, context)

        start = time.monotonic()
        try:
            result = dispatch(action, params)
        except Exception as exc:
            result = {"success": False, "message": f"Dispatch error: {exc}"}
        duration_ms = round((time.monotonic() - start) * 1000, 1)

        step_success = bool(result.get("success", False))
        step_entry = {
            "step": idx,
            "label": label,
            "action": action,
            "success": step_success,
            "message": result.get("message", ""),
            "duration_ms": duration_ms,
        }
        if result.get("context"):
            step_entry["output_context"] = result["context"]

        results.append(step_entry)

        # Propagate step output into shared context
        if isinstance(result.get("context"), dict):
            context.update(result["context"])

        if not step_success and stop_on_failure:
            chain_success = False
            aborted_at = idx
            break

    completed = len(results)
    total = len(steps)
    failed_steps = [r for r in results if not r["success"]]

    if chain_success:
        message = f"Chain completed: {completed}/{total} steps succeeded (dispatch={source})."
        prompt = (
            "All steps completed successfully. "
            "Check 'results' for per-step output and accumulated context. "
            "You can proceed to the next task or run another chain."
        )
    else:
        step_label = results[aborted_at]["label"] if aborted_at is not None else "unknown"
        message = f"Chain aborted at step {aborted_at} ({step_label!r}): {results[aborted_at]['message']}"
        prompt = (
            f"Chain failed at step {aborted_at} ('{step_label}'). "
            "Use dcc_diagnostics__screenshot to capture the current state, "
            "dcc_diagnostics__audit_log to inspect recent action history, "
            "or fix the failing step and re-run the chain."
        )

    print(
        json.dumps(
            {
                "success": chain_success,
                "message": message,
                "prompt": prompt,
                "context": {
                    "completed_steps": completed,
                    "total_steps": total,
                    "aborted_at": aborted_at,
                    "failed_count": len(failed_steps),
                    "dispatch_source": source,
                    "ipc_address": ipc_address,
                    "accumulated_context": context,
                    "results": results,
                },
            }
        )
    )


if __name__ == "__main__":
    main()
