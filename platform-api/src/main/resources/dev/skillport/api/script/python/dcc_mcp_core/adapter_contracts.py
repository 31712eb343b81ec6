"""Data contracts between adapters and tools: debug sessions and UI control (snapshots, finds,
waits, actions, results, policy, audit records). Plain records: ``to_dict()`` / ``from_dict()``."""

import dataclasses
from dataclasses import field
from typing import Any, Dict, List, Optional

from ._records import Record

__all__ = [
    "DebugPathMapping",
    "DebugSessionDescriptor",
    "DebugSessionStatus",
    "UiActionKind",
    "UiActionRequest",
    "UiActionResult",
    "UiArtifactRef",
    "UiBounds",
    "UiControlAuditRecord",
    "UiControlNode",
    "UiControlPolicy",
    "UiErrorCode",
    "UiFindRequest",
    "UiPoint",
    "UiSnapshot",
    "UiWaitCondition",
    "UiWaitConditionKind",
    "UiWaitResult",
]


class DebugSessionStatus(object):
    UNAVAILABLE = "unavailable"
    AVAILABLE = "available"
    LISTENING = "listening"
    CLIENT_CONNECTED = "client_connected"
    ERROR = "error"


@dataclasses.dataclass
class DebugPathMapping(Record):
    local_root: str
    remote_root: str


@dataclasses.dataclass
class DebugSessionDescriptor(Record):
    debugger_kind: str
    status: str = DebugSessionStatus.UNAVAILABLE
    host: Optional[str] = None
    port: Optional[int] = None
    runtime: Optional[str] = None
    process_id: Optional[int] = None
    path_mappings: List[DebugPathMapping] = field(default_factory=list)
    log_uri: Optional[str] = None
    setup_instructions: Optional[str] = None
    metadata: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def unavailable(cls, debugger_kind, setup_instructions):
        return cls(debugger_kind, DebugSessionStatus.UNAVAILABLE, setup_instructions=setup_instructions)

    @classmethod
    def listening(cls, debugger_kind, host, port):
        return cls(debugger_kind, DebugSessionStatus.LISTENING, host=host, port=port)


@dataclasses.dataclass
class UiBounds(Record):
    x: float
    y: float
    width: float
    height: float


@dataclasses.dataclass
class UiPoint(Record):
    x: float
    y: float


@dataclasses.dataclass
class UiArtifactRef(Record):
    uri: str
    mime: Optional[str] = None


@dataclasses.dataclass
class UiControlNode(Record):
    id: str
    role: str
    label: Optional[str] = None
    text: Optional[str] = None
    object_name: Optional[str] = None
    tooltip: Optional[str] = None
    enabled: bool = True
    visible: bool = True
    bounds: Optional[UiBounds] = None
    value: Optional[str] = None
    checked: Optional[bool] = None
    children: List["UiControlNode"] = field(default_factory=list)
    metadata: Dict[str, Any] = field(default_factory=dict)


@dataclasses.dataclass
class UiSnapshot(Record):
    root: UiControlNode
    session_id: Optional[str] = None
    focus_id: Optional[str] = None
    truncated: bool = False
    node_count: int = 1
    metadata: Dict[str, Any] = field(default_factory=dict)


@dataclasses.dataclass
class UiFindRequest(Record):
    query: Optional[str] = None
    role: Optional[str] = None
    label: Optional[str] = None
    object_name: Optional[str] = None
    limit: Optional[int] = None


class UiWaitConditionKind(object):
    CONTROL_EXISTS = "control_exists"
    CONTROL_MISSING = "control_missing"
    TEXT_EQUALS = "text_equals"
    VALUE_EQUALS = "value_equals"
    CHECKED_EQUALS = "checked_equals"
    ENABLED = "enabled"
    DISABLED = "disabled"
    FOCUSED = "focused"


@dataclasses.dataclass
class UiWaitCondition(Record):
    kind: str
    control_id: Optional[str] = None
    query: Optional[str] = None
    role: Optional[str] = None
    label: Optional[str] = None
    text: Optional[str] = None
    value: Optional[str] = None
    checked: Optional[bool] = None
    timeout_ms: int = 5000
    interval_ms: int = 100


class UiActionKind(object):
    CLICK = "click"
    MOVE = "move"
    DOUBLE_CLICK = "double_click"
    SCROLL = "scroll"
    DRAG = "drag"
    RAW_COORDINATE_CLICK = "raw_coordinate_click"
    TYPE = "type"
    KEYPRESS = "keypress"
    GAME_NAVIGATION = "game_navigation"
    SET_TEXT = "set_text"
    TOGGLE = "toggle"
    SET_CHECKED = "set_checked"
    SELECT_OPTION = "select_option"
    FOCUS = "focus"
    KEYBOARD_SHORTCUT = "keyboard_shortcut"
    GET_WINDOW_STATE = "get_window_state"
    RESTORE_WINDOW = "restore_window"
    SHOW_WINDOW = "show_window"
    ACTIVATE_WINDOW = "activate_window"


_POINTER = {UiActionKind.MOVE, UiActionKind.DOUBLE_CLICK, UiActionKind.SCROLL, UiActionKind.DRAG, UiActionKind.RAW_COORDINATE_CLICK}
_KEYS = {UiActionKind.TYPE, UiActionKind.KEYPRESS, UiActionKind.GAME_NAVIGATION, UiActionKind.KEYBOARD_SHORTCUT}
_TEXT = {UiActionKind.TYPE, UiActionKind.SET_TEXT}
_MUTATING = _POINTER | _KEYS | _TEXT | {
    UiActionKind.CLICK,
    UiActionKind.TOGGLE,
    UiActionKind.SET_CHECKED,
    UiActionKind.SELECT_OPTION,
    UiActionKind.FOCUS,
    UiActionKind.RESTORE_WINDOW,
    UiActionKind.SHOW_WINDOW,
    UiActionKind.ACTIVATE_WINDOW,
}


@dataclasses.dataclass
class UiControlPolicy(Record):
    """What a UI-control tool may do; a request can narrow it, never widen it."""

    allow_snapshot: bool = True
    allow_find: bool = True
    allow_mutating_actions: bool = True
    allow_text_entry: bool = True
    allow_keyboard_shortcuts: bool = False
    allow_raw_coordinates: bool = False
    require_scoped_window: bool = True
    allowed_window_titles: List[str] = field(default_factory=list)
    allowed_process_ids: List[int] = field(default_factory=list)
    audit_sensitive_values: bool = False
    scope_denied: bool = False

    def narrowed(self, overrides=None):
        raw = overrides if isinstance(overrides, dict) else {}

        def allowed(name):
            return bool(getattr(self, name)) and bool(raw.get(name, True))

        def scoped(key, own, cast):
            asked = raw.get(key, own)
            asked = [cast(v) for v in asked] if isinstance(asked, list) else []
            if not own:
                return asked, False
            kept = [v for v in (asked or list(own)) if v in own]
            return kept, not kept

        titles, titles_denied = scoped("allowed_window_titles", self.allowed_window_titles, str)
        pids, pids_denied = scoped("allowed_process_ids", self.allowed_process_ids, int)
        return UiControlPolicy(
            allow_snapshot=allowed("allow_snapshot"),
            allow_find=allowed("allow_find"),
            allow_mutating_actions=allowed("allow_mutating_actions"),
            allow_text_entry=allowed("allow_text_entry"),
            allow_keyboard_shortcuts=allowed("allow_keyboard_shortcuts"),
            allow_raw_coordinates=allowed("allow_raw_coordinates"),
            require_scoped_window=self.require_scoped_window or bool(raw.get("require_scoped_window", False)),
            allowed_window_titles=titles,
            allowed_process_ids=pids,
            audit_sensitive_values=self.audit_sensitive_values and bool(raw.get("audit_sensitive_values", False)),
            scope_denied=self.scope_denied or titles_denied or pids_denied,
        )

    def allows_action(self, action):
        if self.scope_denied:
            return False
        if action == UiActionKind.GET_WINDOW_STATE:
            return self.allow_snapshot
        if action in _POINTER and not self.allow_raw_coordinates:
            return False
        if action in _KEYS and not self.allow_keyboard_shortcuts:
            return False
        if action in _TEXT and not self.allow_text_entry:
            return False
        return self.allow_mutating_actions if action in _MUTATING else False

    def allows_request(self, request):
        if self.scope_denied:
            return False
        if request.action == UiActionKind.CLICK and (request.x is not None or request.y is not None):
            return self.allow_mutating_actions and self.allow_raw_coordinates
        return self.allows_action(request.action)


@dataclasses.dataclass
class UiActionRequest(Record):
    control_id: Optional[str]
    action: str
    text: Optional[str] = None
    checked: Optional[bool] = None
    option: Optional[str] = None
    x: Optional[float] = None
    y: Optional[float] = None
    button: Optional[str] = None
    scroll_x: Optional[int] = None
    scroll_y: Optional[int] = None
    path: List[UiPoint] = field(default_factory=list)
    keys: List[str] = field(default_factory=list)
    snapshot_id: Optional[str] = None
    duration_ms: Optional[int] = None
    metadata: Dict[str, Any] = field(default_factory=dict)


class UiErrorCode(object):
    STALE_CONTROL = "stale_control"
    STALE_OBSERVATION = "stale_observation"
    NOT_FOUND = "not_found"
    UNSUPPORTED_ACTION = "unsupported_action"
    DENIED = "denied"
    POLICY_DISABLED = "policy_disabled"
    MISSING_WINDOW = "missing_window"
    TIMEOUT = "timeout"
    INVALID_TARGET = "invalid_target"
    USER_INTERRUPTED = "user_interrupted"
    FOCUS_LOST = "focus_lost"
    DESKTOP_UNAVAILABLE = "desktop_unavailable"
    PERMISSION_DENIED = "permission_denied"
    BACKEND_UNAVAILABLE = "backend_unavailable"
    INVALID_ACTION = "invalid_action"
    INPUT_FAILED = "input_failed"
    CAPTURE_FAILED = "capture_failed"
    BACKEND_ERROR = "backend_error"


@dataclasses.dataclass
class UiActionResult(Record):
    success: bool
    control_id: str
    error_code: Optional[str] = None
    message: Optional[str] = None
    before_focus_id: Optional[str] = None
    after_focus_id: Optional[str] = None
    artifacts: List[UiArtifactRef] = field(default_factory=list)
    metadata: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def stale(cls, control_id):
        return cls(False, control_id, UiErrorCode.STALE_CONTROL, "control is stale; refresh the UI snapshot")


@dataclasses.dataclass
class UiWaitResult(Record):
    success: bool
    condition: UiWaitCondition
    elapsed_ms: float
    attempts: int
    snapshot: Optional[UiSnapshot] = None
    error_code: Optional[str] = None
    message: Optional[str] = None
    metadata: Dict[str, Any] = field(default_factory=dict)


@dataclasses.dataclass
class UiControlAuditRecord(Record):
    action_kind: str
    success: bool
    target_control_id: Optional[str] = None
    target_role: Optional[str] = None
    target_label: Optional[str] = None
    before_focus_id: Optional[str] = None
    after_focus_id: Optional[str] = None
    error_code: Optional[str] = None
    message: Optional[str] = None
    session_id: Optional[str] = None
    redacted_fields: List[str] = field(default_factory=list)
    metadata: Dict[str, Any] = field(default_factory=dict)
