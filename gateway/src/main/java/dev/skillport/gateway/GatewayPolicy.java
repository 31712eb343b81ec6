package dev.skillport.gateway;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the gateway lets through, whatever the instances allow: only instances of the allowed host
 * products, only the allowed skills and tools, and under {@code readOnly} only tools that declare
 * {@code readOnlyHint}. Enforced at the gateway: a skill it does not admit is not searched,
 * described, loaded or called, and its resources and prompts are not listed or read. An empty list
 * allows everything; a pattern may end in {@code *} (a prefix).
 *
 * @param readOnly only tools annotated {@code readOnlyHint: true} may be called
 * @param dccs the host products allowed ({@code blender}, {@code python}, ...)
 * @param skills the skills allowed, by name
 * @param tools the tools allowed, by {@code skill__tool} or by the tool's own name
 */
public record GatewayPolicy(
    boolean readOnly, List<String> dccs, List<String> skills, List<String> tools) {

  /** Everything allowed. */
  public static final GatewayPolicy OPEN =
      new GatewayPolicy(false, List.of(), List.of(), List.of());

  public GatewayPolicy {
    dccs = List.copyOf(dccs == null ? List.of() : dccs);
    skills = List.copyOf(skills == null ? List.of() : skills);
    tools = List.copyOf(tools == null ? List.of() : tools);
  }

  /** Whether an instance serving {@code dcc} is routed to at all. */
  public boolean admitsInstance(InstanceEntry instance) {
    return dccs.isEmpty()
        || dccs.stream().anyMatch(d -> d.equalsIgnoreCase(instance.dcc().toLowerCase(Locale.ROOT)));
  }

  /** Whether {@code skill} of {@code instance} is visible through the gateway. */
  public boolean admitsSkill(InstanceEntry instance, String skill) {
    return admitsInstance(instance) && (skills.isEmpty() || matchesAny(skills, skill));
  }

  /** Whether {@code tool} of {@code skill} may be called (read-only is checked apart). */
  public boolean admitsTool(InstanceEntry instance, String skill, String tool) {
    return admitsSkill(instance, skill)
        && (tools.isEmpty() || matchesAny(tools, tool) || matchesAny(tools, skill + "__" + tool));
  }

  private static boolean matchesAny(List<String> patterns, String name) {
    for (String p : patterns) {
      if (glob(p).matcher(name).matches()) {
        return true;
      }
    }
    return false;
  }

  private static Pattern glob(String pattern) {
    return Pattern.compile(
        Arrays.stream(pattern.split("\\*", -1))
            .map(Pattern::quote)
            .collect(Collectors.joining(".*")));
  }
}
