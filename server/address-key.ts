// The one rule for keying a client address wherever attempts are counted: an IPv4 address is itself; an IPv6 address
// counts as its /64, which one home line or cloud host holds whole (2^64 addresses would otherwise be 2^64 budgets).
import ipaddr from "ipaddr.js";

/** The bits of an IPv6 address that name one subscriber (RFC 6177 assigns at least a /64 to a site). */
export const IPV6_PREFIX_BITS = 64;

/** The address's key: IPv4 dotted (an IPv4-mapped IPv6 address included), IPv6 as its /64 network. */
export function addressKey(ip: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(ip);
  } catch {
    return ip; // not an address (a test's injected name): counted as it is
  }
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.map((part, index) => (index < IPV6_PREFIX_BITS / 16 ? part : 0));
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_PREFIX_BITS}`;
}
