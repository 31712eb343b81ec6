"""Asset-import contracts: what an asset source hands to an import-to-scene tool and back.

Plain frozen records (``to_dict()`` / ``from_dict()``) and the string constants they use."""

import dataclasses
from dataclasses import field
from typing import Any, Dict, List, Optional

from ._records import Record

__all__ = [
    "AssetAttribution",
    "AssetDescriptor",
    "AssetFileVariant",
    "AssetFormat",
    "AssetImportValidationError",
    "AxisHint",
    "ImportToSceneRequest",
    "ImportToSceneResult",
    "ImportWarning",
    "ImportWarningCode",
    "MaterialMode",
    "PlacementHint",
    "UnitHint",
]


class AssetFormat(object):
    OBJ = "obj"
    FBX = "fbx"
    GLTF = "gltf"
    GLB = "glb"
    USD = "usd"
    USDZ = "usdz"
    ABC = "abc"
    BLEND = "blend"
    UNKNOWN = "unknown"


class AxisHint(object):
    Y = "y"
    Z = "z"


class UnitHint(object):
    METER = "meter"
    CENTIMETER = "centimeter"
    INCH = "inch"
    UNITLESS = "unitless"


class MaterialMode(object):
    AS_AUTHORED = "as_authored"
    DEFAULT_GRAY = "default_gray"
    SKIP = "skip"


class ImportWarningCode(object):
    MISSING_TEXTURES = "missing_textures"
    MISSING_PLUGIN = "missing_plugin"
    SCALE_CLAMPED = "scale_clamped"
    ROTATION_CLAMPED = "rotation_clamped"
    NON_UNIFORM_SCALE_BAKED = "non_uniform_scale_baked"
    DEGENERATE_GEOMETRY_SKIPPED = "degenerate_geometry_skipped"
    HIERARCHY_FLATTENED = "hierarchy_flattened"
    NAMES_COLLIDED = "names_collided"
    MATERIAL_FALLBACK = "material_fallback"
    ANIMATION_STRIPPED = "animation_stripped"
    UNSUPPORTED_FEATURE = "unsupported_feature"
    UNKNOWN = "unknown"


class AssetImportValidationError(ValueError):
    """An asset descriptor that breaks the contract (``AssetDescriptor.validate``)."""


@dataclasses.dataclass(frozen=True)
class ImportWarning(Record):
    code: str
    message: str
    detail: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class AssetAttribution(Record):
    source_url: str
    license_spdx: Optional[str] = None
    license_text: Optional[str] = None
    author: Optional[str] = None
    title: Optional[str] = None
    attribution_text: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class AssetFileVariant(Record):
    local_path: str
    format: str = AssetFormat.UNKNOWN
    preferred: bool = False
    mime: Optional[str] = None
    file_ref: Optional[Dict[str, Any]] = None


@dataclasses.dataclass(frozen=True)
class PlacementHint(Record):
    translate: Optional[List[float]] = None
    rotate: Optional[List[float]] = None
    scale: Optional[List[float]] = None
    parent_name: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class AssetDescriptor(Record):
    asset_id: str
    variants: List[AssetFileVariant] = field(default_factory=list)
    attribution: Optional[AssetAttribution] = None
    preview: Optional[str] = None
    unit_hint: str = UnitHint.UNITLESS
    meters_per_unit: float = 1.0
    up_axis: str = AxisHint.Y
    scale_hint: Optional[float] = None
    source_bbox: Optional[Dict[str, Any]] = None
    tags: List[str] = field(default_factory=list)
    extra: Dict[str, Any] = field(default_factory=dict)

    def validate(self):
        """Raises ``AssetImportValidationError`` when the descriptor breaks the contract."""
        if not self.variants:
            raise AssetImportValidationError("AssetDescriptor.variants must not be empty")
        for i, variant in enumerate(self.variants):
            if not variant.local_path:
                raise AssetImportValidationError("AssetDescriptor.variants[%d].local_path must not be empty" % i)
        if self.attribution is not None:
            if not self.attribution.source_url:
                raise AssetImportValidationError("AssetDescriptor.attribution.source_url must not be empty")
            if not (self.attribution.license_spdx or self.attribution.license_text):
                raise AssetImportValidationError(
                    "AssetDescriptor.attribution must have at least one of license_spdx or license_text"
                )

    def to_dict(self):
        out = Record.to_dict(self)
        out["tags"] = list(self.tags)  # kept even when empty: readers index them
        out["extra"] = dict(self.extra)
        return out


@dataclasses.dataclass(frozen=True)
class ImportToSceneRequest(Record):
    descriptor: AssetDescriptor
    material_mode: str = MaterialMode.AS_AUTHORED
    placement: Optional[PlacementHint] = None
    target_collection: Optional[str] = None
    skip_existing: bool = False
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class ImportToSceneResult(Record):
    success: bool
    imported_nodes: List[str] = field(default_factory=list)
    warnings: List[ImportWarning] = field(default_factory=list)
    error_message: Optional[str] = None
    extra: Dict[str, Any] = field(default_factory=dict)
