package dev.skillport.registry.search;

/** The searchable fields of a document and their weights (name matters most). */
enum Field {
  NAME(3.0),
  TAGS(2.5),
  HINT(2.0),
  ALIASES(2.0),
  TOOL_NAMES(1.5),
  DESCRIPTION(1.0);

  final double weight;

  Field(double weight) {
    this.weight = weight;
  }
}
