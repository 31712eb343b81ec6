package dev.skillport.web;

import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Link;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Skill instructions (CommonMark with tables) as HTML that is safe to embed: raw HTML in the
 * Markdown is escaped, link and image URLs are sanitised (http, https, mailto and data images
 * only), and links leave the page without a referrer or access to it.
 */
final class MarkdownRenderer {
  /** Longer instructions are cut before rendering, so one skill cannot make a page huge. */
  static final int MAX_CHARS = 200_000;

  private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
  private final Parser parser = Parser.builder().extensions(EXTENSIONS).build();
  private final HtmlRenderer renderer =
      HtmlRenderer.builder()
          .extensions(EXTENSIONS)
          .escapeHtml(true)
          .sanitizeUrls(true)
          .attributeProviderFactory(
              context ->
                  (node, tagName, attributes) -> {
                    if (node instanceof Link) {
                      attributes.put("rel", "nofollow noopener noreferrer");
                    }
                  })
          .build();

  String render(String markdown) {
    String text = markdown.length() > MAX_CHARS ? markdown.substring(0, MAX_CHARS) : markdown;
    return renderer.render(parser.parse(text));
  }
}
