package dev.skillport.mcp.transport;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * A block of IP addresses in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}; a single
 * address is a block of one). IPv4 and IPv6 blocks never match each other's addresses, except that
 * an IPv4-mapped IPv6 block ({@code ::ffff:10.0.0.0/104}) is the IPv4 block it maps, as Java
 * reports such peers as IPv4 addresses.
 *
 * <p>Parsing is strict and never asks DNS: a name, a zone ({@code %eth0}), leading zeros in an IPv4
 * part (read as octal by some tools, decimal by others), a prefix out of range, or bits set past
 * the prefix ({@code 10.1.2.3/8}, which is {@code 10.0.0.0/8} or a mistake) are refused.
 *
 * @param network the block's first address
 * @param prefix the number of leading bits that every address of the block shares
 */
record AddressBlock(InetAddress network, int prefix) {

  AddressBlock {
    if (prefix < 0 || prefix > network.getAddress().length * 8) {
      throw new IllegalArgumentException("prefix out of range: " + prefix);
    }
  }

  /** Parses {@code ADDRESS} or {@code ADDRESS/PREFIX}; the message says what is wrong. */
  static AddressBlock parse(String text) {
    String trimmed = text.strip();
    int slash = trimmed.indexOf('/');
    String addressText = slash < 0 ? trimmed : trimmed.substring(0, slash);
    InetAddress address =
        literal(addressText)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "'" + text + "' is not an IPv4 or IPv6 address or CIDR block"));
    int bits = address.getAddress().length * 8;
    int prefix = bits;
    boolean mapped = address instanceof Inet4Address && addressText.contains(":");
    if (slash >= 0) {
      String digits = trimmed.substring(slash + 1);
      if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(Character::isDigit)) {
        throw new IllegalArgumentException("'" + text + "' has no prefix length after '/'");
      }
      prefix = Integer.parseInt(digits);
      if (mapped) {
        // ::ffff:a.b.c.d/N names the IPv4 block a.b.c.d/(N-96).
        if (prefix < 96 || prefix > 128) {
          throw new IllegalArgumentException(
              "'" + text + "': an IPv4-mapped block needs a prefix of 96 to 128");
        }
        prefix -= 96;
      } else if (prefix > bits) {
        throw new IllegalArgumentException(
            "'" + text + "': the prefix length is at most " + bits + " for this address");
      }
    }
    AddressBlock block = new AddressBlock(address, prefix);
    if (!Arrays.equals(block.masked(address), address.getAddress())) {
      throw new IllegalArgumentException(
          "'" + text + "' has bits set past its prefix: did you mean " + block.canonical() + "?");
    }
    return block;
  }

  /** Whether {@code address} lies in this block. */
  boolean contains(InetAddress address) {
    byte[] candidate = address.getAddress();
    byte[] base = network.getAddress();
    if (candidate.length != base.length) {
      return false;
    }
    int full = prefix / 8;
    for (int i = 0; i < full; i++) {
      if (candidate[i] != base[i]) {
        return false;
      }
    }
    int rest = prefix % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xFF << (8 - rest)) & 0xFF;
    return (candidate[full] & mask) == (base[full] & mask);
  }

  /** The block written with its host bits cleared, for example {@code 10.0.0.0/8}. */
  String canonical() {
    try {
      return InetAddress.getByAddress(masked(network)).getHostAddress() + "/" + prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException("an address of 4 or 16 bytes", e);
    }
  }

  @Override
  public String toString() {
    return canonical();
  }

  private byte[] masked(InetAddress address) {
    byte[] bytes = address.getAddress();
    for (int i = 0; i < bytes.length; i++) {
      int keep = Math.max(0, Math.min(8, prefix - i * 8));
      bytes[i] &= (byte) ((0xFF << (8 - keep)) & 0xFF);
    }
    return bytes;
  }

  /**
   * An IP address written as a literal (IPv4 dotted quad, or IPv6, optionally in brackets), parsed
   * without DNS; empty for anything else.
   */
  static Optional<InetAddress> literal(String text) {
    String s = text.strip();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1);
    }
    if (s.isEmpty() || s.length() > 45) {
      return Optional.empty();
    }
    try {
      if (s.indexOf(':') < 0) {
        byte[] quad = dottedQuad(s);
        return quad == null ? Optional.empty() : Optional.of(InetAddress.getByAddress(quad));
      }
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex && c != ':' && c != '.') {
          return Optional.empty();
        }
      }
      int dot = s.indexOf('.');
      if (dot >= 0 && dottedQuad(s.substring(s.lastIndexOf(':') + 1)) == null) {
        return Optional.empty();
      }
      // Only hex digits, colons and a valid trailing dotted quad: Java reads this as a literal and
      // never looks it up.
      return Optional.of(InetAddress.getByName(s));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  /** Four decimal parts of 0-255 without leading zeros, or null. */
  private static byte[] dottedQuad(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty()
          || p.length() > 3
          || (p.length() > 1 && p.charAt(0) == '0')
          || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      int value = Integer.parseInt(p);
      if (value > 255) {
        return null;
      }
      out[i] = (byte) value;
    }
    return out;
  }
}
