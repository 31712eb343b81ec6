"""The names dcc-mcp-core v0.20.8 exports at the top of its package, by the module that defines them.

Facts about upstream's public surface, kept so that every one of its names imports here. The names
Skillport implements come from its own modules; the rest stand in as _unsupported placeholders.
"""

UPSTREAM_VERSION = "0.20.8"

NAMES_BY_MODULE = {
    '_core': (
        'ACTION_ID_RE', 'APP_AUTHOR', 'APP_NAME', 'AuditEntry', 'AuditLog', 'AuditMiddleware',
        'BackoffKind', 'BooleanWrapper', 'BoundingBox', 'BridgeContext', 'BridgeRegistry',
        'CaptureBackendKind', 'CaptureFrame', 'CaptureResult', 'CaptureTarget', 'Capturer',
        'DEFAULT_DCC', 'DEFAULT_LOG_FILE_PREFIX', 'DEFAULT_LOG_LEVEL', 'DEFAULT_LOG_MAX_FILES',
        'DEFAULT_LOG_MAX_SIZE', 'DEFAULT_LOG_ROTATION', 'DEFAULT_MIME_TYPE', 'DEFAULT_VERSION',
        'DccError', 'DccErrorCode', 'DccInfo', 'DccLinkFrame', 'ENV_LOG_DIR', 'ENV_LOG_FILE',
        'ENV_LOG_FILE_PREFIX', 'ENV_LOG_LEVEL', 'ENV_LOG_MAX_FILES', 'ENV_LOG_MAX_SIZE',
        'ENV_LOG_ROTATION', 'EventBus', 'FileLoggingConfig', 'FileRef', 'FloatWrapper',
        'FrameRange', 'GracefulIpcChannelAdapter', 'InputValidator', 'IntWrapper',
        'IpcChannelAdapter', 'LoggingMiddleware', 'MAX_TOOL_NAME_LEN', 'McpHttpServer',
        'McpServerHandle', 'ObjectTransform', 'OutputCapture', 'PromptArgument', 'PromptDefinition',
        'PromptHandle', 'PyBufferPool', 'PyCrashRecoveryPolicy', 'PyDccLauncher',
        'PyProcessMonitor', 'PyProcessWatcher', 'PySceneDataKind', 'PySharedBuffer',
        'PySharedSceneBuffer', 'PyStandaloneDispatcher', 'RateLimitMiddleware', 'RecordingGuard',
        'RenderOutput', 'ResourceAnnotations', 'ResourceDefinition', 'ResourceHandle',
        'ResourceTemplateDefinition', 'RetryPolicy', 'SKILL_METADATA_DIR', 'SKILL_METADATA_FILE',
        'SKILL_SCRIPTS_DIR', 'SandboxContext', 'SandboxPolicy', 'SceneInfo', 'SceneNode',
        'SceneObject', 'SceneStatistics', 'ScheduleSpec', 'ScriptLanguage', 'ScriptResult',
        'SdfPath', 'SemVer', 'SerializeFormat', 'ServiceEntry', 'ServiceStatus',
        'SessionEventBuffer', 'SkillCatalog', 'SkillFeedback', 'SkillGroup', 'SkillMetadata',
        'SkillRuntimeDescriptor', 'SkillRuntimeKind', 'SkillRuntimeReport', 'SkillRuntimeState',
        'SkillRuntimeSummary', 'SkillScanner', 'SkillScope', 'SkillSummary', 'SkillValidationIssue',
        'SkillValidationReport', 'SkillVersionEntry', 'SkillVersionManifest', 'SkillWatcher',
        'SocketServerAdapter', 'StepPolicy', 'StringWrapper', 'TOOL_NAME_RE', 'TelemetryConfig',
        'TimingMiddleware', 'ToolAnnotations', 'ToolDeclaration', 'ToolDefinition',
        'ToolDispatcher', 'ToolMetrics', 'ToolPipeline', 'ToolRecorder', 'ToolRegistry',
        'ToolResult', 'ToolSpec', 'TransportAddress', 'TransportScheme', 'TriggerSpec', 'UsdPrim',
        'UsdStage', 'VersionConstraint', 'VersionedRegistry', 'VtValue', 'WindowFinder',
        'WindowInfo', 'WorkflowSpec', 'WorkflowStatus', 'WorkflowStep', 'WorkspaceRoots',
        'artefact_get_bytes', 'artefact_list', 'artefact_put_bytes', 'artefact_put_file',
        'copy_skill_to_team_dir', 'copy_skill_to_user_dir', 'deserialize_result', 'error_result',
        'expand_transitive_dependencies', 'flush_logs', 'from_exception', 'gc_orphans',
        'get_app_skill_paths_from_env', 'get_app_team_skill_paths_from_env',
        'get_app_user_skill_paths_from_env', 'get_bridge_context', 'get_config_dir', 'get_data_dir',
        'get_local_skills_dir', 'get_log_dir', 'get_platform_dir', 'get_skill_feedback',
        'get_skill_paths_from_env', 'get_skill_version_manifest', 'get_skills_dir',
        'get_team_skill_paths_from_env', 'get_team_skills_dir', 'get_tools_dir',
        'get_user_skill_paths_from_env', 'get_user_skills_dir', 'hmac_sha256_hex',
        'init_file_logging', 'is_telemetry_initialized', 'mpu_to_units', 'parse_schedules_yaml',
        'record_skill_feedback', 'register_bridge', 'resolve_dependencies', 'scan_and_load',
        'scan_and_load_lenient', 'scan_and_load_team', 'scan_and_load_team_lenient',
        'scan_and_load_user', 'scan_and_load_user_lenient', 'scan_skill_paths',
        'scene_info_json_to_stage', 'serialize_result', 'shutdown_file_logging',
        'shutdown_telemetry', 'stage_to_scene_info_json', 'success_result', 'units_to_mpu',
        'unwrap_parameters', 'unwrap_value', 'validate_action_id', 'validate_action_result',
        'validate_dependencies', 'validate_skill', 'validate_tool_name', 'verify_hub_signature_256',
        'wrap_value',
    ),
    '_lazy': (
        'lazy_dir', 'resolve_lazy_symbol',
    ),
    '_py37_fallback': (
        'DccCapabilities', 'GuiExecutableHint', 'PyPumpedDispatcher', 'ReadinessProbe',
        'correct_python_executable', 'is_gui_executable', 'parse_skill_md', 'scan_and_load_strict',
    ),
    '_server': (
        'AdaptivePumpPolicy', 'AdaptivePumpStats', 'BaseDccCallableDispatcher',
        'BaseDccCallableDispatcherFull', 'BaseDccPump', 'DEFAULT_UI_JOB_TIMEOUT_MS',
        'DeferredToolResult', 'DispatcherErrorCode', 'ENV_EXCLUDE_STUBS_FROM_TOOLS_LIST',
        'HostExecutionBridge', 'HostPumpController', 'HostPumpSnapshot', 'HostPumpTimerAdapter',
        'HostUiDispatcherBase', 'HostUiJobEntry', 'InProcessCallableDispatcher',
        'InProcessExecutionContext', 'JobEntry', 'JobOutcome', 'ManualHostTimerAdapter',
        'MinimalModeConfig', 'PendingEnvelope', 'QtHostTimerAdapter', 'ThreadedHostTimerAdapter',
        'ToolsListStubPolicy', 'apply_tools_list_stub_policy', 'current_callable_job',
        'current_host_ui_job', 'dcc_exclude_stubs_env_name', 'env_truthy', 'host_ui_outcome',
        'normalize_affinity', 'resolve_tools_list_stub_policy',
    ),
    '_server.config': (
        'McpHttpConfig',
    ),
    '_server.gateway_guardian': (
        'GatewayDaemonGuardian', 'build_gateway_daemon_command', 'ensure_gateway_daemon',
        'launch_gateway_daemon',
    ),
    '_server.options': (
        'BridgeExecution', 'DccServerOptions', 'DiagnosticsOptions', 'DispatcherExecution',
        'ExecutionOptions', 'GatewayOptions', 'InlineExecution', 'ObservabilityOptions',
        'StandaloneMainThreadExecution',
    ),
    'adapter_context': (
        'AdapterInstructionSet', 'DccContextSnapshot', 'DccToolsetProfile', 'ResponseShapePolicy',
        'ToolsetProfileRegistry', 'VisualFeedbackPolicy', 'append_context_snapshot',
        'build_visual_feedback_context', 'register_adapter_instruction_resources', 'shape_response',
    ),
    'adapter_contracts': (
        'DebugPathMapping', 'DebugSessionDescriptor', 'DebugSessionStatus', 'UiActionKind',
        'UiActionRequest', 'UiActionResult', 'UiArtifactRef', 'UiBounds', 'UiControlAuditRecord',
        'UiControlNode', 'UiControlPolicy', 'UiErrorCode', 'UiFindRequest', 'UiPoint', 'UiSnapshot',
        'UiWaitCondition', 'UiWaitConditionKind', 'UiWaitResult',
    ),
    'adapters': (
        'CAPABILITY_KEYS', 'WEBVIEW_DEFAULT_CAPABILITIES', 'WebViewAdapter', 'WebViewContext',
    ),
    'admin_sqlite_lane': (
        'read_custom_skill_paths', 'resolve_admin_db_path',
    ),
    'agent_memory': (
        'InMemoryMemoryStore', 'MemoryEntry', 'MemoryLayer', 'MemoryQuery', 'MemoryRecorder',
        'SqliteMemoryStore',
    ),
    'asset_import': (
        'AssetAttribution', 'AssetDescriptor', 'AssetFileVariant', 'AssetFormat',
        'AssetImportValidationError', 'AxisHint', 'ImportToSceneRequest', 'ImportToSceneResult',
        'ImportWarning', 'ImportWarningCode', 'MaterialMode', 'PlacementHint', 'UnitHint',
    ),
    'asset_sync': (
        'AssetSyncConflictError', 'AssetSyncRevision', 'AssetSyncValidationError',
        'FileAssetSyncStore',
    ),
    'auth': (
        'ApiKeyConfig', 'CimdDocument', 'OAuthConfig', 'TokenValidationError', 'generate_api_key',
        'validate_bearer_token',
    ),
    'batch': (
        'EvalContext', 'batch_dispatch',
    ),
    'bridge': (
        'BridgeConnectionError', 'BridgeError', 'BridgeFallbackClient', 'BridgeRetryPolicy',
        'BridgeRpcError', 'BridgeTimeoutError', 'BridgeTransportStrategy', 'DccBridge',
        'ReverseBridgeRequest', 'ReverseBridgeSession',
    ),
    'cancellation': (
        'CancelToken', 'CancellationProbe', 'CancelledError', 'JobHandle', 'check_cancelled',
        'check_dcc_cancelled', 'current_cancel_token', 'current_job', 'current_job_id',
        'reset_cancel_token', 'reset_current_job', 'set_cancel_token', 'set_current_job',
    ),
    'capabilities': (
        'CapabilityManifestBuilder', 'CapabilityRecord', 'build_manifest_payload',
        'register_capability_mcp_tool',
    ),
    'capability_graph': (
        'CapabilityEdge', 'CapabilityGraph', 'EdgeKind',
    ),
    'checkpoint': (
        'CheckpointStore', 'checkpoint_every', 'clear_checkpoint', 'configure_checkpoint_store',
        'get_checkpoint', 'list_checkpoints', 'register_checkpoint_tools', 'save_checkpoint',
    ),
    'chunked_runner': (
        'ChunkedOutcome', 'ChunkedProgress', 'ChunkedRunner', 'ChunkedStep', 'chunked_job',
    ),
    'constants': (
        'CATEGORY_DIAGNOSTICS', 'CATEGORY_DOCS', 'CATEGORY_FEEDBACK', 'CATEGORY_GENERAL',
        'CATEGORY_INTROSPECT', 'CATEGORY_RECIPES', 'CATEGORY_WORKFLOWS',
        'ENV_DISABLE_ACCUMULATED_SKILLS', 'ENV_DISABLE_DEFAULT_SKILL_PATHS', 'ENV_SKILL_PATHS',
        'ENV_TEAM_SKILL_PATHS', 'ENV_USER_SKILL_PATHS', 'LAYER_DOMAIN', 'LAYER_EXAMPLE',
        'LAYER_INFRASTRUCTURE', 'LAYER_THIN_HARNESS', 'METADATA_DCC_KEY', 'METADATA_DCC_MCP',
        'METADATA_EXAMPLES_KEY', 'METADATA_EXTERNAL_DEPS_KEY', 'METADATA_GROUPS_KEY',
        'METADATA_LAYER_KEY', 'METADATA_PROMPTS_KEY', 'METADATA_RECIPES_KEY',
        'METADATA_SEARCH_HINT_KEY', 'METADATA_SKILL_REFERENCE_DOCS_KEY', 'METADATA_TAGS_KEY',
        'METADATA_TOOLS_KEY', 'METADATA_VERSION_KEY', 'METADATA_WORKFLOWS_KEY',
    ),
    'daemon_launch': (
        'Daemon', 'detached_popen_kwargs', 'launch_detached',
    ),
    'dcc_api_executor': (
        'DccApiCatalog', 'DccApiExecutor', 'register_dcc_api_executor',
    ),
    'dcc_server': (
        'register_diagnostic_handlers', 'register_diagnostic_mcp_tools',
    ),
    'docs_resources': (
        'get_builtin_docs_uris', 'get_docs_content', 'register_docs_resource',
        'register_docs_resources_from_dir', 'register_docs_server',
    ),
    'elicitation': (
        'ElicitationMode', 'ElicitationRequest', 'ElicitationResponse', 'FormElicitation',
        'UrlElicitation', 'elicit_form', 'elicit_form_sync', 'elicit_url',
    ),
    'escape_hatch_policy': (
        'EscapeHatchInvocation', 'EscapeHatchPolicy',
    ),
    'factory': (
        'create_dcc_server', 'get_server_instance', 'make_start_stop', 'start_embedded_dcc_server',
    ),
    'feedback': (
        'clear_feedback', 'extract_rationale', 'get_feedback_entries', 'make_rationale_meta',
        'register_feedback_tool',
    ),
    'gateway_election': (
        'DccGatewayElection',
    ),
    'guardrails': (
        'DccBlockedCall', 'DccGuardrailError', 'DccWeakSandbox',
    ),
    'host': (
        'normalize_tool_arguments', 'normalize_tool_meta',
    ),
    'host_errors': (
        'capture_bootstrap_errors', 'record_bootstrap_error',
    ),
    'hotreload': (
        'DccSkillHotReloader',
    ),
    'install_lifecycle': (
        'build_sidecar_command', 'default_registry_dir', 'inspect_install_root', 'launch_sidecar',
        'plan_runtime_updates', 'probe_sidecar_tool', 'query_runtime_state',
        'resolve_deployment_layout', 'safe_remove_tree', 'safe_replace_tree',
        'sidecar_host_rpc_dispatch_contract', 'sidecar_readiness_status', 'stop_runtime_entries',
        'wait_for_sidecar_ready',
    ),
    'introspect': (
        'introspect_eval', 'introspect_list_module', 'introspect_search', 'introspect_signature',
        'register_introspect_tools',
    ),
    'lifecycle_hooks': (
        'HookContext', 'HookDeny', 'HookEvent', 'LifecycleHooks',
    ),
    'metadata_registration': (
        'MetadataExtensionRegistration', 'MetadataExtensionResult', 'MetadataRegistrationReport',
        'default_metadata_extension_registrations', 'imported_metadata_extension',
        'metadata_extension', 'register_metadata_driven_tools',
    ),
    'plugin_manifest': (
        'PluginManifest', 'build_plugin_manifest', 'export_plugin_manifest',
    ),
    'project': (
        'BaseSceneResolver', 'DccProject', 'PROJECT_DIR_NAME', 'PROJECT_STATE_FILE', 'ProjectState',
        'ProjectToolsIntegration', 'attach_project_tools', 'register_project_tools',
    ),
    'readiness': (
        'AdapterReadinessBinder', 'DEFAULT_FIRST_PUMP_TIMEOUT_SECS', 'READINESS_ALL_BITS',
        'READINESS_BASE_BITS', 'READINESS_EXECUTION_BITS', 'readiness_report_subset',
    ),
    'recipes': (
        'RecipeDefinition', 'find_recipe_entry', 'get_recipe_content', 'get_recipes_path',
        'get_recipes_paths', 'list_recipe_entries', 'load_recipe_pack', 'parse_recipe_anchors',
        'register_recipes_tools', 'validate_recipe_inputs',
    ),
    'rich_content': (
        'RichContent', 'RichContentKind', 'attach_rich_content', 'skill_success_with_chart',
        'skill_success_with_image', 'skill_success_with_table',
    ),
    'schema': (
        'derive_parameters_schema', 'derive_schema', 'schema_from_doc', 'tool_spec_from_callable',
    ),
    'script_execution': (
        'FileBackedScriptExecutionParams', 'ScriptExecutionCapture', 'ScriptExecutionParams',
        'ScriptExecutionResult', 'ScriptExecutionSerializationError',
        'allow_script_materialization_root', 'normalize_file_backed_script_execution_params',
        'normalize_script_execution_params', 'validate_script_file_path',
    ),
    'script_materialization': (
        'MaterializedScript', 'cleanup_materialized_scripts', 'default_script_materialization_root',
        'materialize_script', 'sanitize_materialization_segment',
    ),
    'script_materialization_tools': (
        'register_script_materialization_tools',
    ),
    'semantic_skill_index': (
        'LexicalSkillIndex', 'RrfFusionIndex', 'SkillDocument', 'SkillSearchHit',
    ),
    'server_base': (
        'DccServerBase', 'create_skill_server',
    ),
    'sidecar': (
        'ERROR_DISPATCH_FAILED', 'ERROR_NO_SOURCE_FILE', 'ERROR_PAYLOAD_MALFORMED',
        'ERROR_SERVER_NOT_RUNNING', 'ERROR_UNKNOWN_ACTION', 'SidecarActionDispatcher',
        'SidecarDispatchRequest',
    ),
    'skill': (
        'get_bundled_skill_paths', 'get_bundled_skills_dir', 'run_main', 'skill_entry',
        'skill_error', 'skill_error_with_trace', 'skill_exception', 'skill_success',
        'skill_warning',
    ),
    'skill_reference_docs': (
        'register_skill_reference_docs_tools',
    ),
    'skills.builtin': (
        'register_all_builtin_skills',
    ),
    'skills.qt_ui_inspector': (
        'qt_describe_widget', 'qt_find_widgets', 'qt_list_windows', 'qt_snapshot_tree',
        'qt_wait_for_widget', 'register_qt_ui_inspector',
    ),
    'skills_helper': (
        'SkillHelperError', 'ToolValidator', 'json_dumps', 'json_loads',
        'skill_error_from_exception', 'yaml_dumps', 'yaml_loads',
    ),
    'spatial': (
        'SpatialConvention', 'plan_spatial_conversion',
    ),
    'usd_resources': (
        'USD_ASSETS_URI', 'USD_BINARY_MIME', 'USD_JSON_MIME', 'USD_LAYERS_URI', 'USD_MARKDOWN_MIME',
        'USD_MATERIALS_URI', 'USD_PACKAGES_URI', 'USD_PACKAGE_MIME', 'USD_RESOURCE_SCHEME',
        'USD_SNAPSHOTS_URI', 'USD_STAGE_URI', 'USD_TEXT_MIME', 'USD_VALIDATION_URI',
        'UsdProjectResource', 'UsdProjectResourceProvider', 'build_usd_project_resources',
        'register_usd_project_resources',
    ),
    'vector_embedder': (
        'Embedder', 'EmbedderError', 'HashedEmbedder', 'OnnxEmbedder',
    ),
    'vector_skill_index': (
        'InMemoryVectorStore', 'VectorSkillIndex', 'VectorStore',
    ),
    'verifier': (
        'SceneStats',
    ),
    'workflow_yaml': (
        'WorkflowTask', 'WorkflowYaml', 'get_workflow_path', 'load_workflow_yaml',
        'register_workflow_yaml_tools',
    ),
}

# Every module of the upstream package, so that import dcc_mcp_core.<module> works too.
MODULES = (
    '_exports', '_install_lifecycle_process', '_install_lifecycle_readiness',
    '_install_lifecycle_runtime', '_install_lifecycle_sidecar', '_lazy', '_lifecycle_events',
    '_py37_fallback', '_registration', '_runtime', '_runtime.config_bridge',
    '_runtime.core_availability', '_runtime.mcp_http_config', '_runtime.pure_skill_catalog',
    '_runtime.server_factory', '_runtime.sidecar_skill_server', '_runtime.skill_paths',
    '_runtime.tool_registry_py', '_server', '_server._inprocess_contracts',
    '_server._inprocess_results', '_server.callable_dispatcher', '_server.config',
    '_server.execution_bridge', '_server.gateway_guardian', '_server.host_pump',
    '_server.host_ui_dispatcher', '_server.inprocess_executor', '_server.lifecycle',
    '_server.lifecycle_controller', '_server.minimal_mode', '_server.observability',
    '_server.observability_facade', '_server.options', '_server.runtime', '_server.skill_discovery',
    '_server.skill_query', '_server.tools_list_policy', '_server.window_resolver', '_testing',
    '_tool_registration', '_typing_compat', '_windows_dll_search', 'adapter_context',
    'adapter_contracts', 'adapters', 'adapters.webview', 'admin_sqlite_lane', 'admin_tools',
    'agent_memory', 'asset_import', 'asset_sync', 'auth', 'batch', 'bridge', 'cancellation',
    'capabilities', 'capability_graph', 'checkpoint', 'chunked_runner', 'constants', 'cua_cli',
    'daemon_launch', 'dcc_api_executor', 'dcc_server', 'docs_resources', 'elicitation',
    'escape_hatch_policy', 'factory', 'feedback', 'gateway_election', 'guardrails', 'host',
    'host._adapter', 'host._fallback', 'host._protocols', 'host._standalone', 'host._wire',
    'host.qt_dispatcher', 'host_errors', 'hotreload', 'install_lifecycle', 'introspect',
    'lifecycle_hooks', 'loaded_state_store', 'metadata_registration', 'observability_query',
    'plugin_manifest', 'project', 'qt_dispatcher', 'readiness', 'recipes', 'result_envelope',
    'rich_content', 'schema', 'script_execution', 'script_materialization',
    'script_materialization_tools', 'semantic_skill_index', 'server_base', 'sidecar', 'skill',
    'skill_reference_docs', 'skills_helper', 'spatial', 'ui_control_server', 'usd_resources',
    'vector_embedder', 'vector_skill_index', 'verifier', 'workflow_yaml',
)
