"""Coordinate-system conversion between hosts: which axes map where, and the unit scale.

``plan_spatial_conversion(source, target)`` computes, without touching a scene, the 3x3 axis
matrix taking source coordinates to target coordinates, the position scale (source metres per
unit over target metres per unit), the 4x4 position matrix, and whether the change mirrors
space (negative determinant: mesh winding and tangent handedness must flip).
"""

import dataclasses
import math
from typing import Optional

__all__ = ["SpatialConvention", "plan_spatial_conversion"]

_AXES = {
    "+X": (1.0, 0.0, 0.0),
    "-X": (-1.0, 0.0, 0.0),
    "+Y": (0.0, 1.0, 0.0),
    "-Y": (0.0, -1.0, 0.0),
    "+Z": (0.0, 0.0, 1.0),
    "-Z": (0.0, 0.0, -1.0),
}


def _axis(value):
    if not isinstance(value, str):
        raise TypeError("axis values must be strings")
    axis = value.strip().upper().replace("\u2212", "-")
    axis = "+" + axis if axis in ("X", "Y", "Z") else axis
    if axis not in _AXES:
        raise ValueError("invalid signed axis %r; expected one of %s" % (value, sorted(_AXES)))
    return axis


@dataclasses.dataclass(frozen=True)
class SpatialConvention(object):
    """A coordinate space: its right, up and forward axes (``"+X"``, ``"-Z"``, …) and metres per unit."""

    right: str
    up: str
    forward: str
    meters_per_unit: float
    name: Optional[str] = None

    def __post_init__(self):
        axes = [_axis(v) for v in (self.right, self.up, self.forward)]
        if len({a[-1] for a in axes}) != 3:
            raise ValueError("right, up, and forward must use three distinct axes")
        if isinstance(self.meters_per_unit, bool):
            raise TypeError("meters_per_unit must be a positive finite number")
        scale = float(self.meters_per_unit)
        if not math.isfinite(scale) or scale <= 0:
            raise ValueError("meters_per_unit must be a positive finite number")
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError("name must be a string or None")
        for key, value in zip(("right", "up", "forward", "meters_per_unit"), axes + [scale]):
            object.__setattr__(self, key, value)

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict):
            raise TypeError("spatial convention must be a mapping")
        return cls(data["right"], data["up"], data["forward"], data["meters_per_unit"], data.get("name"))

    def to_dict(self):
        out = {"right": self.right, "up": self.up, "forward": self.forward, "meters_per_unit": self.meters_per_unit}
        if self.name is not None:
            out["name"] = self.name
        return out

    def basis_matrix(self):
        """Row-major 3x3 matrix whose columns are the right, up and forward vectors."""
        cols = [_AXES[self.right], _AXES[self.up], _AXES[self.forward]]
        return [[cols[c][r] for c in range(3)] for r in range(3)]


def _convention(value):
    return value if isinstance(value, SpatialConvention) else SpatialConvention.from_dict(value)


def plan_spatial_conversion(source, target, sample_point=None):
    """The conversion from ``source`` to ``target`` (conventions or their dicts), as plain data."""
    src, dst = _convention(source), _convention(target)
    a, b = dst.basis_matrix(), src.basis_matrix()
    # target basis times the inverse (= transpose, the bases are orthonormal) of the source basis
    m = [[sum(a[r][k] * b[c][k] for k in range(3)) for c in range(3)] for r in range(3)]
    scale = src.meters_per_unit / dst.meters_per_unit
    det = (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )
    mirrored = det < 0
    plan = {
        "source": src.to_dict(),
        "target": dst.to_dict(),
        "axis_matrix": m,
        "position_scale": scale,
        "position_matrix": [[v * scale for v in row] + [0.0] for row in m] + [[0.0, 0.0, 0.0, 1.0]],
        "determinant": det,
        "orientation_reversing": mirrored,
        "mesh_winding": "reverse" if mirrored else "preserve",
        "requires_tangent_handedness_flip": mirrored,
        "matrix_convention": "row-major values; apply as M @ column_vector",
    }
    if sample_point is not None:
        if isinstance(sample_point, (str, bytes)) or len(sample_point) != 3:
            raise TypeError("sample_point must be a three-number sequence")
        p = [float(v) for v in sample_point]
        if not all(math.isfinite(v) for v in p):
            raise ValueError("sample_point components must be finite")
        plan["converted_sample_point"] = [scale * sum(m[r][c] * p[c] for c in range(3)) for r in range(3)]
    return plan
