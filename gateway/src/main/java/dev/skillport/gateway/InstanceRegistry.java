package dev.skillport.gateway;

import java.io.IOException;
import java.util.List;

/**
 * Where instances say they exist and the gateway reads who does. The folder of a workstation
 * ({@link FolderRegistry}) is the one backend so far; a shared database for a fleet is another.
 */
public interface InstanceRegistry {
  /** Adds or replaces {@code entry} (a registration and each heartbeat). */
  void put(InstanceEntry entry) throws IOException;

  /** Removes the instance {@code id}; nothing happens when it is not registered. */
  void remove(String id) throws IOException;

  /** Every registered instance whose entry could be read, sorted by id. */
  List<InstanceEntry> list() throws IOException;
}
