"""Cooperative cancellation: ``check_cancelled()`` raises ``CancelledError`` once the call is cancelled.

Skillport tells a running script that its call was cancelled in one of two ways, and the probe
installed by default reads both:

- a script run as its own process finds the path of a flag file in ``SKILLPORT_CANCEL_FILE``; the
  server creates that file when the call is cancelled, then gives the script a moment to stop
  before it ends the process tree;
- a script run inside a host (Blender, the Python host) asks the host loop, which marks the call
  cancelled as soon as the cancel request arrives.

Outside a call (a REPL, a unit test) nothing is installed and ``check_cancelled()`` does nothing.
A dispatcher of its own may install a ``CancelToken`` with ``set_cancel_token``.
"""

import contextvars
import os
import sys
import threading

__all__ = [
    "CancelToken",
    "CancellationProbe",
    "CancelledError",
    "JobHandle",
    "check_cancelled",
    "check_dcc_cancelled",
    "current_cancel_token",
    "current_job",
    "current_job_id",
    "reset_cancel_token",
    "reset_current_job",
    "set_cancel_token",
    "set_current_job",
]


class CancelledError(Exception):
    """The call running this script was cancelled by its caller."""


class CancellationProbe(object):
    """What a cancel token offers: ``cancelled`` (bool) and ``job_id`` (str or None)."""

    @property
    def cancelled(self):
        return False

    @property
    def job_id(self):
        return None


class JobHandle(CancellationProbe):
    """A host dispatcher's per-job handle; only ``cancelled`` is required."""


class CancelToken(CancellationProbe):
    """A thread-safe cancellation flag a dispatcher sets with ``cancel()``."""

    __slots__ = ("_cancelled", "_job_id", "_lock")

    def __init__(self, job_id=None):
        self._cancelled = False
        self._job_id = job_id or None
        self._lock = threading.Lock()

    def cancel(self):
        with self._lock:
            self._cancelled = True

    @property
    def cancelled(self):
        with self._lock:
            return self._cancelled

    @property
    def job_id(self):
        return self._job_id

    def __bool__(self):
        return self.cancelled

    def __repr__(self):
        return "CancelToken(cancelled=%s)" % self.cancelled


class _SkillportProbe(CancellationProbe):
    """Reads Skillport's cancel signal: the flag file, or the host loop's record of the call."""

    @property
    def cancelled(self):
        flag = os.environ.get("SKILLPORT_CANCEL_FILE")
        if flag and os.path.exists(flag):
            return True
        host = sys.modules.get("skillport_host")
        probe = getattr(host, "cancelled", None)
        return bool(probe()) if callable(probe) else False


_SKILLPORT = _SkillportProbe()
_current_token = contextvars.ContextVar("dcc_mcp_core_cancel_token", default=_SKILLPORT)
_current_job_id = contextvars.ContextVar("dcc_mcp_core_job_id", default=None)
current_job = contextvars.ContextVar("dcc_mcp_core_current_job", default=None)


def check_cancelled():
    """Raises ``CancelledError`` if the call running this script has been cancelled."""
    token = _current_token.get()
    if token is not None and token.cancelled:
        raise CancelledError("Request cancelled by client")


def check_dcc_cancelled():
    """Like ``check_cancelled``, and also honours a host dispatcher's job handle."""
    check_cancelled()
    job = current_job.get()
    if job is not None and getattr(job, "cancelled", False):
        raise CancelledError("Job cancelled by the host")


def current_cancel_token():
    """The probe in effect (Skillport's own unless a dispatcher installed one)."""
    return _current_token.get()


def current_job_id():
    """The id of the job running this script, when it runs as a job; else ``None``."""
    explicit = _current_job_id.get()
    if explicit:
        return explicit
    token = _current_token.get()
    job_id = getattr(token, "job_id", None)
    if job_id:
        return job_id
    job = current_job.get()
    return getattr(job, "job_id", None) or None


def set_cancel_token(token):
    """Installs ``token`` for the current context; pass the result to ``reset_cancel_token``."""
    return _current_token.set(token)


def reset_cancel_token(reset):
    _current_token.reset(reset)


def set_current_job(job):
    """Publishes a host dispatcher's job handle; pass the result to ``reset_current_job``."""
    return current_job.set(job)


def reset_current_job(reset):
    current_job.reset(reset)
