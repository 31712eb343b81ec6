"""``connect_ipc`` and ``TransportAddress``: a channel to the host adapter the script runs under.

Inside a host (the Blender adapter, the Python host), ``connect_ipc()`` returns a channel to that
host's loop: ``call("scene")`` answers the open scene as plain data and ``call("ping")`` the host's
process id, the operations the adapter itself asks for. The answer has upstream's shape:
``{"success": bool, "payload": bytes (JSON), "error": str or None}``. A script that runs as a
process of its own is under no host, so ``connect_ipc`` raises ``ConnectionError`` saying so; a
script asks Skillport's tools through its client instead.
"""

import json
import os
import sys
import tempfile

__all__ = ["HostChannel", "TransportAddress", "connect_ipc"]


class TransportAddress(object):
    """An endpoint: ``tcp://host:port``, ``pipe://name`` or ``unix:///path``."""

    def __init__(self, scheme, host=None, port=None, path=None):
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path

    @staticmethod
    def tcp(host, port):
        return TransportAddress("tcp", host=host, port=int(port))

    @staticmethod
    def named_pipe(name):
        return TransportAddress("pipe", path=name if name.startswith("\\\\.\\pipe\\") else "\\\\.\\pipe\\" + name)

    @staticmethod
    def unix_socket(path):
        return TransportAddress("unix", path=str(path))

    @staticmethod
    def default_pipe_name(dcc_type, pid):
        return TransportAddress.named_pipe("dcc-mcp-%s-%d" % (dcc_type, pid))

    @staticmethod
    def default_unix_socket(dcc_type, pid):
        return TransportAddress.unix_socket(os.path.join(tempfile.gettempdir(), "dcc-mcp-%s-%d.sock" % (dcc_type, pid)))

    @staticmethod
    def default_local(dcc_type, pid):
        if sys.platform.startswith("win"):
            return TransportAddress.default_pipe_name(dcc_type, pid)
        return TransportAddress.default_unix_socket(dcc_type, pid)

    @staticmethod
    def parse(text):
        """An address from its URI form, or ``host:port``."""
        text = str(text).strip()
        if text.startswith("tcp://"):
            host, _, port = text[6:].rpartition(":")
            return TransportAddress.tcp(host, int(port))
        if text.startswith("pipe://"):
            return TransportAddress.named_pipe(text[7:])
        if text.startswith("unix://"):
            return TransportAddress.unix_socket(text[7:])
        host, sep, port = text.rpartition(":")
        if sep and port.isdigit():
            return TransportAddress.tcp(host, int(port))
        raise ValueError("not a transport address: %r" % text)

    @property
    def is_tcp(self):
        return self.scheme == "tcp"

    @property
    def is_named_pipe(self):
        return self.scheme == "pipe"

    @property
    def is_unix_socket(self):
        return self.scheme == "unix"

    @property
    def is_local(self):
        return self.scheme != "tcp" or self.host in ("127.0.0.1", "localhost", "::1")

    def __str__(self):
        if self.scheme == "tcp":
            return "tcp://%s:%d" % (self.host, self.port)
        return "%s://%s" % (self.scheme, self.path)

    def __repr__(self):
        return "TransportAddress(%r)" % str(self)


class HostChannel(object):
    """A channel to the host loop the script runs in."""

    def __init__(self, host):
        self._host = host
        self._open = True

    def call(self, method, params=b"", timeout_ms=30000):
        if not self._open:
            return {"success": False, "payload": b"", "error": "the channel is shut down"}
        if isinstance(params, (bytes, bytearray)):
            params = params.decode("utf-8")
        args = json.loads(params) if isinstance(params, str) and params.strip() else (params or {})
        try:
            value = self._host.host_call(str(method), args)
        except Exception as e:  # the host's failure is the call's answer
            return {"success": False, "payload": b"", "error": "%s: %s" % (type(e).__name__, e)}
        return {"success": True, "payload": json.dumps(value, default=str).encode("utf-8"), "error": None}

    def ping(self):
        return self.call("ping")["success"]

    def is_connected(self):
        return self._open

    def shutdown(self):
        self._open = False

    disconnect = shutdown


def connect_ipc(address=None, timeout_ms=10000):
    """A channel to the host the script runs in (``address`` names it upstream; here it is implied)."""
    host = sys.modules.get("skillport_host")
    if host is None or not callable(getattr(host, "host_call", None)):
        raise ConnectionError(
            "connect_ipc: this script runs in a process of its own, not inside a host, so there is no "
            "host adapter to connect to%s" % ("" if address is None else " (asked for %s)" % address)
        )
    return HostChannel(host)
