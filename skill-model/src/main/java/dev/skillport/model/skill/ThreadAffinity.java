package dev.skillport.model.skill;

/** Which thread a tool must run on inside its host. */
public enum ThreadAffinity {
  /** Any worker thread, or a subprocess. */
  ANY,
  /** The host application's main thread, through a host adapter's executor. */
  MAIN
}
