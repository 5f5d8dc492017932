// Whether a host name is this machine's loopback: the one place that answers it, for a HOST setting and for a
// request's hostname alike (an IPv6 address may come bracketed).

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** Loopback only: 0.0.0.0 and :: listen on every interface, so they are not. */
export const isLoopback = (host: string): boolean => LOOPBACK.has(host.toLowerCase());

/** Every interface: the address to print for it is this machine's own, localhost. */
export const isEveryInterface = (host: string): boolean => host === "0.0.0.0" || host === "::" || host === "[::]";
