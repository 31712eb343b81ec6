package dev.skillport.api.script;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs scripts in the style dcc-mcp-core documents against the package, with a real python3. */
class PythonCompatTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path lib;

  @BeforeEach
  void write() throws IOException {
    lib = PythonCompat.writeTo(tmp.resolve("lib"));
  }

  private record Run(int exit, JsonNode result, String stderr) {}

  private Run run(String script, String stdin, String... args) throws Exception {
    Path file = tmp.resolve("script.py");
    Files.writeString(file, script);
    List<String> command = new ArrayList<>(List.of("python3", file.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("PYTHONPATH", lib.toString());
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    Path out = tmp.resolve("out");
    Path err = tmp.resolve("err");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String text = Files.readString(out).strip();
    String[] lines = text.split("\n");
    return new Run(p.exitValue(), JSON.readTree(lines[lines.length - 1]), Files.readString(err));
  }

  @Test
  void runMain_entryWithArgumentsFromStdin_printsSuccessEnvelopeAndExitsZero() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core.skill import skill_success, skill_entry, run_main

            @skill_entry
            def main(radius=1.0, name="sphere", **kwargs):
                print("creating", name)
                return skill_success("Created " + name, prompt="Call bevel next.", radius=radius)

            if __name__ == "__main__":
                run_main(main)
            """,
            "{\"radius\": 2.5, \"name\": \"ball\"}");

    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.result())
        .isEqualTo(
            JSON.readTree(
                "{\"success\":true,\"message\":\"Created ball\",\"prompt\":\"Call bevel next.\","
                    + "\"context\":{\"radius\":2.5}}"));
  }

  @Test
  void runMain_raisingEntry_printsFailureEnvelopeAndExitsOne() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core.skill import skill_entry, run_main

            @skill_entry
            def main(**kwargs):
                raise ValueError("no mesh selected")

            run_main(main)
            """,
            "");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.result().get("success").asBoolean()).isFalse();
    assertThat(r.result().get("message").asText()).isEqualTo("ValueError: no mesh selected");
    assertThat(r.result().at("/context/error_type").asText()).isEqualTo("ValueError");
    assertThat(r.result().at("/context/traceback").asText()).contains("no mesh selected");
  }

  @Test
  void runMain_missingModule_saysWhichModule() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core.skill import skill_entry, run_main

            @skill_entry
            def main(**kwargs):
                import maya.cmds
                return "never"

            run_main(main)
            """,
            "{}");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.result().get("message").asText())
        .startsWith("Required module not available")
        .contains("maya");
  }

  @Test
  void runMain_withoutStdin_readsFlags_andHelpersShapeTheEnvelope() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core import skill_error, run_main, image_content

            def main(count=0, label="", verbose=False):
                return skill_error(
                    "only %d of %s" % (count, label),
                    possible_solutions=["select more"],
                    content=[image_content(path="a.png")],
                    verbose=verbose,
                )

            run_main(main)
            """,
            "", "--count", "3", "--label", "cubes", "--verbose");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.result())
        .isEqualTo(
            JSON.readTree(
                "{\"success\":false,\"message\":\"only 3 of cubes\","
                    + "\"prompt\":\"Check the error details and try again.\","
                    + "\"error\":\"only 3 of cubes\","
                    + "\"context\":{\"verbose\":true,\"possible_solutions\":[\"select more\"]},"
                    + "\"content\":[{\"type\":\"image\",\"path\":\"a.png\"}]}"));
  }

  @Test
  void toolResult_andPlainReturnValues_becomeEnvelopes() throws Exception {
    Run r =
        run(
            """
            import json
            from dcc_mcp_core import ToolResult, skill_entry, skill_warning
            from dcc_mcp_core.result_envelope import success_result

            @skill_entry
            def text():
                return "plain text"

            @skill_entry
            def number():
                return 7

            print(json.dumps([
                ToolResult.ok("Loaded", name="x").to_dict(),
                ToolResult.fail("Missing", error="not_found").to_dict(),
                success_result("fine").to_dict(),
                skill_warning("partly", warning="2 skipped"),
                text(),
                number(),
            ]))
            """,
            "");

    assertThat(r.exit()).isZero();
    assertThat(r.result())
        .isEqualTo(
            JSON.readTree(
                """
                [{"success":true,"message":"Loaded","context":{"name":"x"}},
                 {"success":false,"message":"Missing","error":"not_found"},
                 {"success":true,"message":"fine"},
                 {"success":true,"message":"partly","context":{"warning":"2 skipped"}},
                 {"success":true,"message":"plain text"},
                 {"success":true,"message":"Done.","context":{"result":7}}]"""));
  }

  /** Upstream's top-level exports, recorded from dcc-mcp-core 0.20.8's {@code _exports.py}. */
  private static Path upstreamExports() throws Exception {
    return Path.of(PythonCompatTest.class.getResource("/dcc-mcp-core-0.20.8-exports.txt").toURI());
  }

  @Test
  void everyUpstreamExport_imports_andEachNotImplementedSaysItHasNoMeaningHere() throws Exception {
    Run r =
        run(
            """
            import json, sys
            import dcc_mcp_core
            from dcc_mcp_core import NotInSkillportScript
            names = [l.strip() for l in open(sys.argv[1]) if l.strip()]
            missing, silent, wrong = [], [], []
            for name in names:
                try:
                    value = getattr(dcc_mcp_core, name)
                except AttributeError:
                    missing.append(name)
                    continue
                if name.startswith("__") or name in dcc_mcp_core.IMPLEMENTED:
                    continue
                try:
                    value()
                    silent.append(name)
                except NotInSkillportScript as e:
                    if "has no meaning in a Skillport script" not in str(e) or name not in str(e):
                        wrong.append(str(e))
            exec("from dcc_mcp_core import " + ", ".join(n for n in names if not n.startswith("__")))
            print(json.dumps({"names": len(names), "missing": missing, "silent": silent,
                              "wrong": wrong, "implemented": len(dcc_mcp_core.IMPLEMENTED),
                              "not_in_all": sorted(set(names) - set(dcc_mcp_core.__all__))}))
            """,
            "",
            upstreamExports().toString());

    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.result().path("names").asInt()).isEqualTo(585);
    assertThat(r.result().path("missing")).as("upstream names that do not import").isEmpty();
    assertThat(r.result().path("not_in_all")).isEmpty();
    assertThat(r.result().path("silent")).as("placeholders that did not refuse").isEmpty();
    assertThat(r.result().path("wrong")).isEmpty();
    assertThat(r.result().path("implemented").asInt()).isGreaterThan(70);
  }

  @Test
  void namesUpstreamSkillsUse_workAndUpstreamModulesImport() throws Exception {
    Run r =
        run(
            """
            import json
            import dcc_mcp_core
            from dcc_mcp_core.skills_helper import run_main, skill_entry, skill_success
            from dcc_mcp_core.asset_import import AssetDescriptor, AssetFileVariant, AssetFormat
            from dcc_mcp_core._tool_registration import ToolSpec
            from dcc_mcp_core._typing_compat import Literal
            from dcc_mcp_core.host import HostAdapter
            from dcc_mcp_core import adapter_contracts
            used = ["CancelledError", "check_cancelled", "tool_spec_from_callable", "validate_skill",
                    "Capturer", "connect_ipc", "TransportAddress", "plan_spatial_conversion",
                    "skill_entry", "skill_success", "skill_error", "ToolSpec"]
            placeholders = [n for n in used if "not available" in repr(getattr(dcc_mcp_core, n))]
            d = AssetDescriptor("a/b", variants=[AssetFileVariant("/x.obj", AssetFormat.OBJ)])
            policy = adapter_contracts.UiControlPolicy().narrowed({"allow_find": False})
            print(json.dumps({"placeholders": placeholders, "asset": d.to_dict(),
                              "find": policy.allow_find, "host": repr(HostAdapter),
                              "literal": repr(Literal["a"])}))
            """,
            "");

    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.result().path("placeholders")).isEmpty();
    assertThat(r.result().path("asset"))
        .isEqualTo(
            JSON.readTree(
                "{\"asset_id\":\"a/b\",\"variants\":[{\"local_path\":\"/x.obj\","
                    + "\"format\":\"obj\",\"preferred\":false}],\"unit_hint\":\"unitless\","
                    + "\"meters_per_unit\":1.0,\"up_axis\":\"y\",\"tags\":[],\"extra\":{}}"));
    assertThat(r.result().path("find").asBoolean()).isFalse();
    assertThat(r.result().path("host").asText()).contains("not available in a Skillport script");
  }

  @Test
  void skillsHelper_yamlJsonFilesAndBoundedHttp() throws Exception {
    Run r =
        run(
            """
            import json, os, shutil, tempfile, threading
            from http.server import BaseHTTPRequestHandler, HTTPServer
            from dcc_mcp_core import skills_helper as h
            from dcc_mcp_core import _yaml
            _yaml._pyyaml = None  # the subset reader, whatever the interpreter has

            class Handler(BaseHTTPRequestHandler):
                def do_GET(self):
                    body = b'{"ok": true}' if self.path.startswith("/ok") else b"x" * 5000
                    self.send_response(200 if not self.path.startswith("/missing") else 404)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *a):
                    pass

            server = HTTPServer(("127.0.0.1", 0), Handler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            base = "http://127.0.0.1:%d" % server.server_port
            out = {"json": h.http_get_json(base + "/ok", query={"a": 1})}
            big = h.http_request("GET", base + "/big", max_bytes=100)
            out["truncated"] = [big.truncated, len(big.bytes)]
            try:
                h.http_get_json(base + "/missing")
            except h.HttpStatusError as e:
                out["status"] = e.status
            try:
                h.http_request("GET", "file:///etc/passwd")
            except h.SkillHttpError as e:
                out["scheme"] = e.kind
            doc = h.load_yaml_text("name: demo\\ntools:\\n  - name: t\\n    tags: [a, b]\\nn: 3\\n")
            out["yaml"] = doc
            out["yaml_round"] = h.load_yaml_text(h.dump_yaml_text(doc)) == doc
            folder = tempfile.mkdtemp()
            path = h.dump_json_file(os.path.join(folder, "sub", "a.json"), {"k": [1, 2]})
            out["file"] = h.load_json_file(path, require_mapping=True)
            out["digest"] = h.file_digest(path) == h.bytes_digest(open(path, "rb").read())
            try:
                h.ensure_within_root(folder, "../outside")
            except h.SkillFileError:
                out["escape"] = "refused"
            ok, errors = h.ToolValidator.from_schema_json(
                '{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}'
            ).validate('{"n": "x"}')
            out["validator"] = [ok, errors]
            server.shutdown()
            shutil.rmtree(folder)
            print(json.dumps(out))
            """,
            "");

    assertThat(r.exit()).as(r.stderr()).isZero();
    JsonNode out = r.result();
    assertThat(out.path("json")).isEqualTo(JSON.readTree("{\"ok\":true}"));
    assertThat(out.path("truncated").toString()).isEqualTo("[true,100]");
    assertThat(out.path("status").asInt()).isEqualTo(404);
    assertThat(out.path("scheme").asText()).isEqualTo("invalid-url");
    assertThat(out.path("yaml"))
        .isEqualTo(
            JSON.readTree(
                "{\"name\":\"demo\",\"tools\":[{\"name\":\"t\",\"tags\":[\"a\",\"b\"]}],"
                    + "\"n\":3}"));
    assertThat(out.path("yaml_round").asBoolean()).isTrue();
    assertThat(out.path("file")).isEqualTo(JSON.readTree("{\"k\":[1,2]}"));
    assertThat(out.path("digest").asBoolean()).isTrue();
    assertThat(out.path("escape").asText()).isEqualTo("refused");
    assertThat(out.path("validator").toString())
        .isEqualTo("[false,[\"$.n: expected integer, got str\"]]");
  }

  @Test
  void checkCancelled_raisesOnceTheRuntimesCancelFileExists() throws Exception {
    Run r =
        run(
            """
            import json, os, tempfile
            from dcc_mcp_core import CancelledError, check_cancelled
            with tempfile.TemporaryDirectory() as folder:
                flag = os.path.join(folder, "cancelled")
                os.environ["SKILLPORT_CANCEL_FILE"] = flag
                check_cancelled()
                open(flag, "w").close()
                try:
                    check_cancelled()
                    print(json.dumps({"raised": False}))
                except CancelledError as e:
                    print(json.dumps({"raised": True, "message": str(e)}))
            """,
            "");

    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.result().path("raised").asBoolean()).isTrue();
  }

  @Test
  void schemaValidationCaptureAndIpc_outsideAHost() throws Exception {
    Path skill = tmp.resolve("demo-skill");
    Files.createDirectories(skill.resolve("scripts"));
    Files.writeString(
        skill.resolve("SKILL.md"), "---\nname: demo-skill\ndescription: A demo.\n---\nBody\n");
    Files.writeString(
        skill.resolve("tools.yaml"), "tools:\n  - name: go\n    source_file: scripts/go.py\n");
    Run r =
        run(
            """
            import json, sys
            from dataclasses import dataclass
            from typing import List, Optional
            from dcc_mcp_core import (Capturer, CaptureUnavailable, connect_ipc,
                                      tool_spec_from_callable, validate_skill)
            from dcc_mcp_core._typing_compat import Literal

            def make(radius: float, kind: Literal["a", "b"] = "a", tags: Optional[List[str]] = None):
                \"\"\"Make a thing.\"\"\"

            spec = tool_spec_from_callable(make)
            report = validate_skill(sys.argv[1])
            out = {"schema": spec.input_schema, "description": spec.description,
                   "issues": [i.message for i in report.issues]}
            try:
                Capturer.new_auto()
            except CaptureUnavailable as e:
                out["capture"] = str(e)
            frame = Capturer.new_mock(64, 32).capture()
            out["mock"] = [frame.width, frame.height, frame.data[:4] == b"\\x89PNG"]
            try:
                connect_ipc()
            except ConnectionError as e:
                out["ipc"] = str(e)
            print(json.dumps(out))
            """,
            "",
            skill.toString());

    assertThat(r.exit()).as(r.stderr()).isZero();
    JsonNode out = r.result();
    assertThat(out.path("schema"))
        .isEqualTo(
            JSON.readTree(
                "{\"type\":\"object\",\"properties\":{\"radius\":{\"type\":\"number\"},"
                    + "\"kind\":{\"enum\":[\"a\",\"b\"],\"type\":\"string\",\"default\":\"a\"},"
                    + "\"tags\":{\"anyOf\":[{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                    + "{\"type\":\"null\"}],\"default\":null}},\"additionalProperties\":false,"
                    + "\"required\":[\"radius\"]}"));
    assertThat(out.path("description").asText()).isEqualTo("Make a thing.");
    assertThat(out.path("issues").toString())
        .isEqualTo("[\"tool 'go' names scripts/go.py, which does not exist\"]");
    assertThat(out.path("capture").asText()).contains("not inside a host");
    assertThat(out.path("mock").toString()).isEqualTo("[64,32,true]");
    assertThat(out.path("ipc").asText()).contains("not inside a host");
  }
}
