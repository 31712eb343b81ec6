import dev.skillport.api.stability.API;

/**
 * The plugin SPI: what a host-adapter or handler plugin compiles against. Only these packages are
 * exported; every public type in them is marked {@link API} with its stability.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.skillport.api {
  requires transitive com.fasterxml.jackson.databind;
  requires static transitive pf4j;

  exports dev.skillport.api.host;
  exports dev.skillport.api.owner;
  exports dev.skillport.api.resource;
  exports dev.skillport.api.script;
  exports dev.skillport.api.stability;
  exports dev.skillport.api.tool;
}
