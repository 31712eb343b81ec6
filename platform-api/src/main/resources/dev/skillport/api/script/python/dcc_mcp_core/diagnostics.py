"""In-process diagnostics a script keeps for itself: a sandbox with an audit log, a tool-timing
recorder and a process monitor.

Each holds what happened in this script's own process (a script run on its own starts empty);
Skillport's own audit log and metrics are the server's (``/metrics`` and the audit file).
"""

import json
import os
import threading
import time

__all__ = [
    "AuditEntry",
    "AuditLog",
    "PyProcessMonitor",
    "RecordingGuard",
    "SandboxContext",
    "SandboxPolicy",
    "ToolMetrics",
    "ToolRecorder",
]


class SandboxPolicy(object):
    """Which actions and paths a ``SandboxContext`` allows, and its limits."""

    def __init__(self):
        self.allowed_actions = None  # None: every action not denied
        self.denied_actions = set()
        self.allowed_paths = []
        self.timeout_ms = None
        self.max_actions = None
        self._read_only = False

    def allow_actions(self, actions):
        self.allowed_actions = set(actions)

    def deny_actions(self, actions):
        self.denied_actions |= set(actions)

    def allow_paths(self, paths):
        self.allowed_paths = [os.path.abspath(p) for p in paths]

    def set_timeout_ms(self, ms):
        self.timeout_ms = int(ms)

    def set_max_actions(self, count):
        self.max_actions = int(count)

    def set_read_only(self, read_only):
        self._read_only = bool(read_only)

    @property
    def is_read_only(self):
        return self._read_only

    def __repr__(self):
        return "SandboxPolicy(read_only=%s)" % self._read_only


class AuditEntry(object):
    """One action the sandbox saw: who, what, with which parameters, how it ended."""

    def __init__(self, actor, action, params_json, duration_ms, outcome, outcome_detail=None):
        self.timestamp_ms = int(time.time() * 1000)
        self.actor = actor
        self.action = action
        self.params_json = params_json
        self.duration_ms = duration_ms
        self.outcome = outcome
        self.outcome_detail = outcome_detail
        self.details = outcome_detail

    def to_dict(self):
        return dict(self.__dict__)

    def __repr__(self):
        return "AuditEntry(%s %s: %s)" % (self.actor, self.action, self.outcome)


class AuditLog(object):
    """The entries of a ``SandboxContext``, oldest first."""

    def __init__(self):
        self._entries = []
        self._lock = threading.Lock()

    def _add(self, entry):
        with self._lock:
            self._entries.append(entry)

    def __len__(self):
        return len(self._entries)

    def entries(self):
        return list(self._entries)

    def successes(self):
        return [e for e in self._entries if e.outcome == "success"]

    def denials(self):
        return [e for e in self._entries if e.outcome == "denied"]

    def entries_for_action(self, action):
        return [e for e in self._entries if e.action == action]

    def to_json(self):
        return json.dumps([e.to_dict() for e in self._entries])

    def __repr__(self):
        return "AuditLog(%d entries)" % len(self._entries)


class SandboxContext(object):
    """Runs actions under a ``SandboxPolicy`` and records each in its ``audit_log``."""

    def __init__(self, policy):
        self.policy = policy
        self._audit = AuditLog()
        self._actor = None
        self._count = 0

    @property
    def audit_log(self):
        return self._audit

    @property
    def action_count(self):
        return self._count

    def set_actor(self, actor):
        self._actor = actor

    def is_allowed(self, action):
        p = self.policy
        return action not in p.denied_actions and (p.allowed_actions is None or action in p.allowed_actions)

    def is_path_allowed(self, path):
        if not self.policy.allowed_paths:
            return True
        full = os.path.abspath(path)
        return any(full == root or full.startswith(root + os.sep) for root in self.policy.allowed_paths)

    def execute_with_handler(self, action, params_json, handler):
        """Runs ``handler(params)`` if the policy allows ``action``; the outcome is audited."""
        started = time.monotonic()
        limit = self.policy.max_actions
        if not self.is_allowed(action) or (limit is not None and self._count >= limit):
            self._audit._add(AuditEntry(self._actor, action, params_json, 0, "denied", "not allowed by the policy"))
            raise PermissionError("action %r is not allowed by the sandbox policy" % action)
        self._count += 1
        try:
            result = handler(json.loads(params_json) if params_json else {})
        except Exception as e:
            ms = int((time.monotonic() - started) * 1000)
            self._audit._add(AuditEntry(self._actor, action, params_json, ms, "error", str(e)))
            raise
        ms = int((time.monotonic() - started) * 1000)
        self._audit._add(AuditEntry(self._actor, action, params_json, ms, "success"))
        return result

    def execute_json(self, action, params_json):
        return json.dumps(self.execute_with_handler(action, params_json, lambda params: params))

    def __repr__(self):
        return "SandboxContext(%d actions)" % self._count


class ToolMetrics(object):
    """Timing of one action: counts, success rate, mean and tail durations."""

    def __init__(self, action_name, durations, successes):
        self.action_name = action_name
        self.invocation_count = len(durations)
        self.success_count = successes
        self.failure_count = len(durations) - successes
        ordered = sorted(durations)
        self.avg_duration_ms = sum(ordered) / len(ordered) if ordered else 0.0
        self.p95_duration_ms = _percentile(ordered, 0.95)
        self.p99_duration_ms = _percentile(ordered, 0.99)

    def success_rate(self):
        return self.success_count / self.invocation_count if self.invocation_count else 0.0

    def __repr__(self):
        return "ToolMetrics(%s: %d calls)" % (self.action_name, self.invocation_count)


def _percentile(ordered, q):
    if not ordered:
        return 0.0
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


class RecordingGuard(object):
    """One timed invocation; ``finish(success)`` or leaving the ``with`` block records it."""

    def __init__(self, recorder, action_name):
        self._recorder = recorder
        self._action = action_name
        self._started = time.monotonic()
        self._done = False

    def finish(self, success):
        if not self._done:
            self._done = True
            self._recorder._record(self._action, (time.monotonic() - self._started) * 1000, bool(success))

    def __enter__(self):
        return self

    def __exit__(self, exc_type, _exc_value, _traceback):
        self.finish(exc_type is None)
        return False


class ToolRecorder(object):
    """Times actions run in this process: ``with recorder.start(name, dcc): ...``."""

    def __init__(self, scope):
        self.scope = scope
        self._calls = {}
        self._lock = threading.Lock()

    def start(self, action_name, dcc_name=None):
        return RecordingGuard(self, action_name)

    def _record(self, action, ms, success):
        with self._lock:
            durations, ok = self._calls.get(action, ([], 0))
            durations.append(ms)
            self._calls[action] = (durations, ok + (1 if success else 0))

    def metrics(self, action_name):
        entry = self._calls.get(action_name)
        return ToolMetrics(action_name, entry[0], entry[1]) if entry else None

    def all_metrics(self):
        return [ToolMetrics(name, d, ok) for name, (d, ok) in sorted(self._calls.items())]

    def reset(self):
        with self._lock:
            self._calls.clear()


class PyProcessMonitor(object):
    """Tracks processes by id and reports whether each is alive (no background thread)."""

    def __init__(self):
        self._tracked = {}

    def track(self, pid, name):
        self._tracked[int(pid)] = name

    def untrack(self, pid):
        self._tracked.pop(int(pid), None)

    def refresh(self):
        pass  # every query reads the process table afresh

    def is_running(self):
        """Whether a background sampler runs; this monitor has none and is always idle."""
        return False

    def is_alive(self, pid):
        try:
            os.kill(int(pid), 0)
        except PermissionError:
            return True  # it exists; this user may not signal it
        except OSError:
            return False
        return True

    def query(self, pid):
        pid = int(pid)
        if not self.is_alive(pid):
            return None
        return {"pid": pid, "name": self._tracked.get(pid), "alive": True}

    def list_all(self):
        return [q for q in (self.query(pid) for pid in sorted(self._tracked)) if q is not None]

    def tracked_count(self):
        return len(self._tracked)

    def __repr__(self):
        return "PyProcessMonitor(%d tracked)" % len(self._tracked)
