package dev.skillport.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.resource.ResourceTemplate;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ConformanceResourcesTest {
  private final ResourceProvider provider = new ConformanceResources();

  @Test
  void serviceLoader_findsTheProvider() {
    assertThat(ServiceLoader.load(ResourceProvider.class).stream())
        .extracting(p -> p.type().getName())
        .contains(ConformanceResources.class.getName());
  }

  @Test
  void templates_listTheSuitesTemplate() {
    assertThat(provider.templates())
        .extracting(ResourceTemplate::uriTemplate)
        .containsExactly("test://template/{id}/data");
  }

  @Test
  void read_uriOfTheTemplate_textNamesTheId() throws Exception {
    assertThat(provider.read("test://template/123/data"))
        .hasValueSatisfying(
            c -> {
              assertThat(c.uri()).isEqualTo("test://template/123/data");
              assertThat(c.text()).contains("123");
            });
  }

  @Test
  void read_otherUris_empty() throws Exception {
    assertThat(provider.read("test://template/123/other")).isEmpty();
    assertThat(provider.read("test://static-text")).isEmpty();
    assertThat(provider.read("test://template//data")).isEmpty();
  }

  @Test
  void complete_idVariable_filtersByPrefix() {
    assertThat(provider.complete(ConformanceResources.TEMPLATE, "id", "4")).containsExactly("456");
    assertThat(provider.complete(ConformanceResources.TEMPLATE, "other", "")).isEmpty();
  }
}
