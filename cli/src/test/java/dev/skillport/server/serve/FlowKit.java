package dev.skillport.server.serve;

import dev.skillport.testsupport.InteropTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The skill the whole-flow interop tests drive with {@code interop/flow-client.mjs}: a Python
 * script tool ({@code word_count}), a Java tool ({@code greet}, the conformance plugin's handler),
 * a script that asks the user's name with {@code ::ask} ({@code ask_name}) and an async bash script
 * that starts a helper process and writes both pids to a file ({@code long_job}), so a test can
 * check that cancelling it leaves no process behind.
 */
public final class FlowKit {
  public static final String SKILL = "flow-kit";

  private FlowKit() {}

  /** Writes the skill into {@code root}/flow-kit. */
  public static void writeTo(Path root) throws IOException {
    Path dir = root.resolve(SKILL);
    Files.createDirectories(dir.resolve("scripts"));
    Files.writeString(
        dir.resolve("SKILL.md"),
        """
        ---
        name: flow-kit
        description: Counts words in text, greets people, asks their name, and runs a long job
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        Count words with word_count; greet with greet; ask_name asks the user's name first.
        """);
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - name: word_count
            description: Counts the words of a text
            input_schema:
              type: object
              properties: {text: {type: string}}
              required: [text]
          - name: greet
            description: Greets someone (a Java tool)
            handler: mcp-conformance.greet
            input_schema:
              type: object
              properties: {name: {type: string}}
          - name: ask_name
            description: Asks the user's name, then greets them
          - name: long_job
            description: Works for the given seconds with a helper process; a job or task
            execution: async
            input_schema:
              type: object
              properties:
                seconds: {type: number}
                pid_file: {type: string}
        """);
    Files.writeString(
        dir.resolve("scripts/word_count.py"),
        """
        import json, sys
        args = json.load(sys.stdin)
        print(json.dumps({"words": len(args["text"].split())}))
        """);
    try (var script = FlowKit.class.getResourceAsStream("/flow-kit/ask_name.py")) {
      Files.write(dir.resolve("scripts/ask_name.py"), script.readAllBytes());
    }
    Files.writeString(
        dir.resolve("scripts/long_job.sh"),
        """
        #!/usr/bin/env bash
        # --seconds N [--pid-file FILE]: a helper sleeps beside the script; both pids go to FILE.
        seconds=1; pid_file=
        while [ $# -gt 0 ]; do
          case "$1" in
            --seconds) seconds=$2; shift 2;;
            --pid-file) pid_file=$2; shift 2;;
            *) shift;;
          esac
        done
        sleep 600 &
        helper=$!
        if [ -n "$pid_file" ]; then echo "$$ $helper" > "$pid_file"; fi
        echo "::progress 0 $seconds working" >&2
        sleep "$seconds"
        kill $helper
        echo "{\\"success\\": true, \\"message\\": \\"worked $seconds s\\"}"
        """);
  }

  /** The conformance fixture's plugin folder, which holds the Java tool's handler. */
  public static Path plugins() {
    return Path.of(System.getProperty("skillport.conformancePlugins", "../samples/target/plugins"))
        .toAbsolutePath();
  }

  /**
   * {@code node interop/flow-client.mjs} on TS SDK {@code major} through the whole flow: the
   * completed run of {@code long_job} takes a second, the cancelled one would take a minute and
   * writes its pids to {@code pidFile}; {@code target} is {@code --url URL} or {@code -- COMMAND}.
   */
  static List<String> client(int major, Path pidFile, String... target) {
    List<String> command =
        new ArrayList<>(
            List.of(
                InteropTools.node().toString(),
                InteropTools.repository().resolve("interop/flow-client.mjs").toString(),
                "--sdk",
                Integer.toString(major),
                "--sdk-dir",
                InteropTools.dir(major == 1 ? "sdk@1" : "client@2").toString(),
                "--skill",
                SKILL,
                "--query",
                "count words",
                "--script-tool",
                "word_count",
                "--script-args",
                "{\"text\":\"one two three\"}",
                "--java-tool",
                "greet",
                "--java-args",
                "{\"name\":\"Ada\"}",
                "--elicit-tool",
                "ask_name",
                "--async-tool",
                "long_job",
                "--async-args",
                "{\"seconds\":1}",
                "--cancel-args",
                "{\"seconds\":60,\"pid_file\":\"" + pidFile + "\"}",
                "--timeout",
                "90000"));
    command.addAll(List.of(target));
    return command;
  }
}
