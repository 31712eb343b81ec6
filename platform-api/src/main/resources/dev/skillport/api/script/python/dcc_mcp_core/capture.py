"""``Capturer``: a picture of what the host shows, where a headless host can make one.

Inside a host that can picture its scene (the Blender adapter renders the scene camera, with the
scene's render settings scaled by ``scale``), ``Capturer.new_auto()`` captures through the host.
A script run as its own process has no screen to capture under Skillport (the server is headless
and the script is not inside a host): ``new_auto()`` and ``new_window_auto()`` raise
``CaptureUnavailable`` saying so. ``Capturer.new_mock(width, height)`` draws a checkerboard, for
tests.
"""

import struct
import sys
import time
import zlib

__all__ = [
    "CaptureBackendKind",
    "CaptureFrame",
    "CaptureResult",
    "CaptureTarget",
    "CaptureUnavailable",
    "Capturer",
]


class CaptureUnavailable(RuntimeError):
    """Nothing here can be captured: no host that pictures its scene."""


class CaptureBackendKind(object):
    HOST_RENDER = "host_render"
    MOCK = "mock"


_MIME = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "raw_bgra": "application/octet-stream"}


class CaptureFrame(object):
    """One captured picture: encoded ``data`` plus its size and format."""

    def __init__(self, data, width, height, format, dpi_scale=1.0, window_title=None):
        self.data = bytes(data)
        self.width = int(width)
        self.height = int(height)
        self.format = "jpeg" if format == "jpg" else format
        self.mime_type = _MIME.get(self.format, "application/octet-stream")
        self.timestamp_ms = int(time.time() * 1000)
        self.dpi_scale = float(dpi_scale)
        self.window_title = window_title
        self.window_rect = None

    def byte_len(self):
        return len(self.data)

    def __repr__(self):
        return "CaptureFrame(%dx%d %s, %d bytes)" % (self.width, self.height, self.format, len(self.data))


class CaptureResult(object):
    """A capture as returned to a caller: image bytes, size, format and the viewport it shows."""

    def __init__(self, data, width, height, format, viewport=None):
        self.data = bytes(data)
        self.width = int(width)
        self.height = int(height)
        self.format = format
        self.viewport = viewport

    def data_size(self):
        return len(self.data)

    def __repr__(self):
        return "CaptureResult(%dx%d %s)" % (self.width, self.height, self.format)


class CaptureTarget(object):
    """What to capture; under Skillport a host pictures its own scene whatever the target says."""

    def __init__(self, kind, value=None):
        self.kind = kind
        self.value = value

    primary_display = staticmethod(lambda: CaptureTarget("primary_display"))
    monitor_index = staticmethod(lambda index: CaptureTarget("monitor_index", index))
    process_id = staticmethod(lambda pid: CaptureTarget("process_id", pid))
    window_title = staticmethod(lambda title: CaptureTarget("window_title", title))
    window_handle = staticmethod(lambda handle: CaptureTarget("window_handle", handle))

    def __repr__(self):
        return "CaptureTarget(%s=%r)" % (self.kind, self.value)


def _png(width, height, rgb_rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rgb_rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def _host():
    host = sys.modules.get("skillport_host")
    return host if host is not None and callable(getattr(host, "capture", None)) else None


class Capturer(object):
    """Captures pictures through a backend: the host's renderer, or a mock checkerboard."""

    def __init__(self, backend, width=None, height=None):
        self._backend = backend
        self._size = (width, height)
        self._count = 0
        self._bytes = 0
        self._errors = 0

    @staticmethod
    def new_auto():
        if _host() is None:
            raise CaptureUnavailable(
                "no screen to capture: under Skillport this script runs headless in a process of its "
                "own, not inside a host; capture from a skill whose dcc has a host adapter "
                "(Blender renders its scene camera), or use Capturer.new_mock() in tests"
            )
        return Capturer(CaptureBackendKind.HOST_RENDER)

    @staticmethod
    def new_window_auto():
        return Capturer.new_auto()

    @staticmethod
    def new_mock(width=1920, height=1080):
        return Capturer(CaptureBackendKind.MOCK, int(width), int(height))

    def backend_name(self):
        return {"host_render": "Skillport host render", "mock": "Mock"}[self._backend]

    def backend_kind(self):
        return self._backend

    def stats(self):
        return (self._count, self._bytes, self._errors)

    def capture(self, format="png", jpeg_quality=85, scale=1.0, timeout_ms=5000, process_id=None, window_title=None):
        """One picture, encoded as ``format`` (``png``, ``jpeg``, ``raw_bgra``), sized by ``scale``."""
        if format not in _MIME:
            raise ValueError("format must be png, jpeg or raw_bgra, not %r" % (format,))
        if not 0.0 < float(scale) <= 1.0:
            raise ValueError("scale must be in (0, 1]")
        try:
            if self._backend == CaptureBackendKind.HOST_RENDER:
                got = _host().capture(format=format, scale=float(scale), jpeg_quality=int(jpeg_quality))
                frame = CaptureFrame(got["data"], got["width"], got["height"], format, window_title=got.get("title"))
            else:
                frame = self._mock(format, float(scale))
        except Exception:
            self._errors += 1
            raise
        self._count += 1
        self._bytes += frame.byte_len()
        return frame

    def capture_window(self, process_id=None, window_handle=None, window_title=None, format="png", jpeg_quality=85,
                       scale=1.0, timeout_ms=5000, include_decorations=True):
        if process_id is None and window_handle is None and window_title is None:
            raise ValueError("give process_id, window_handle or window_title")
        return self.capture(format=format, jpeg_quality=jpeg_quality, scale=scale, timeout_ms=timeout_ms)

    @staticmethod
    def capture_window_png(pid, timeout_ms=1000):
        return Capturer.new_auto().capture(format="png").data

    def _mock(self, format, scale):
        width = max(1, int(self._size[0] * scale))
        height = max(1, int(self._size[1] * scale))
        if format == "jpeg":
            raise CaptureUnavailable("the mock backend draws png or raw_bgra only")
        cell = 32
        light, dark = b"\xc8\xc8\xc8", b"\x50\x50\x50"
        rows = []
        for y in range(height):
            row = bytearray()
            for x in range(width):
                row += light if ((x // cell) + (y // cell)) % 2 == 0 else dark
            rows.append(bytes(row))
        if format == "raw_bgra":
            data = b"".join(bytes(b for px in range(0, len(r), 3) for b in (r[px + 2], r[px + 1], r[px], 255)) for r in rows)
        else:
            data = _png(width, height, rows)
        return CaptureFrame(data, width, height, format)
