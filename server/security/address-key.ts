// The one reading of a client address, wherever it is counted, listed or logged: parsed once per request, a port
// dropped (a proxy may write `ip:port` into X-Forwarded-For), and anything that is not plainly an address put in one
// shared bucket; an IPv4 address counts as itself, an IPv6 address as its /64, which one home line or cloud host holds
// whole (2^64 addresses would otherwise be 2^64 budgets).
import type { FastifyRequest } from "fastify";
import ipaddr from "ipaddr.js";

/** The bits of an IPv6 address that name one subscriber (RFC 6177 assigns at least a /64 to a site). */
const IPV6_PREFIX_BITS = 64;
/** Every spelling that is not plainly an address: one bucket, so odd spellings of one address are not many budgets. */
export const UNPARSED_ADDRESS = "unparsed";

/**
 * An address as written by a socket or a proxy, read once: `a.b.c.d`, `a.b.c.d:port`, an IPv6 address, `[v6]` or
 * `[v6]:port`. IPv4 only in four decimal parts (`0x0a.4.4.4`, `012.4.4.4`, `1.2.3` and `167773188` are not read as
 * 10.4.4.4 and the like); anything else is UNPARSED_ADDRESS.
 */
function parseAddress(written: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = written.trim();
  const bracketed = text.match(/^\[([^\]]+)\](?::\d{1,5})?$/);
  const v4port = text.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/);
  const bare = bracketed?.[1] ?? v4port?.[1] ?? text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (!ipaddr.IPv6.isValid(bare)) return undefined;
  const parsed = ipaddr.process(bare);
  return parsed.kind() === "ipv4" || !bare.includes(".") || (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? parsed
    : undefined;
}

const parsedOnce = new WeakMap<FastifyRequest, string>();

/** The request's client address, parsed once: its plain spelling, or UNPARSED_ADDRESS. */
export function clientAddress(request: FastifyRequest): string {
  let address = parsedOnce.get(request);
  if (address === undefined) {
    address = parseAddress(request.ip)?.toString() ?? UNPARSED_ADDRESS;
    parsedOnce.set(request, address);
  }
  return address;
}

/** The address's key: IPv4 dotted (an IPv4-mapped IPv6 address included), IPv6 as its /64 network. */
export function addressKey(ip: string): string {
  const parsed = parseAddress(ip);
  if (!parsed) return UNPARSED_ADDRESS;
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.map((part, index) => (index < IPV6_PREFIX_BITS / 16 ? part : 0));
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_PREFIX_BITS}`;
}
