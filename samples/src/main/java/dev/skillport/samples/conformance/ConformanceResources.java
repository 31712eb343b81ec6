package dev.skillport.samples.conformance;

import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.resource.ResourceTemplate;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conformance suite's templated resource, {@code test://template/{id}/data}: a skill's
 * resources file lists only concrete files, so the template is served from Java. Its text names the
 * id it was read with.
 */
public final class ConformanceResources implements ResourceProvider {
  /** The template the suite reads with an id of its choice. */
  public static final String TEMPLATE = "test://template/{id}/data";

  private static final Pattern URI = Pattern.compile("test://template/([^/?#]+)/data");

  @Override
  public List<ResourceTemplate> templates() {
    return List.of(
        new ResourceTemplate(
            TEMPLATE,
            "template-data",
            "Data for one id; the text includes the id.",
            "application/json"));
  }

  @Override
  public Optional<ResourceContents> read(String uri) {
    Matcher m = URI.matcher(uri);
    if (!m.matches()) {
      return Optional.empty();
    }
    String id = m.group(1);
    return Optional.of(
        ResourceContents.text(
            uri,
            "application/json",
            "{\"id\":\""
                + id.replace("\"", "")
                + "\",\"templateTest\":true,\"data\":\"Data for ID: "
                + id.replace("\"", "")
                + "\"}"));
  }

  @Override
  public List<String> complete(String uriTemplate, String variable, String prefix) {
    if (!TEMPLATE.equals(uriTemplate) || !"id".equals(variable)) {
      return List.of();
    }
    return List.of("123", "456", "789").stream().filter(v -> v.startsWith(prefix)).toList();
  }
}
