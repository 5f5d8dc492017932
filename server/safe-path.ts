// A redirect target is followed only when it is a path on this origin: never `//host`, `/\host` or a URL.
export function safePath(target: string): string | undefined {
  if (!target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return undefined;
  if ([...target].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  const url = new URL(target, "http://portal.invalid");
  return url.host === "portal.invalid" ? `${url.pathname}${url.search}` : undefined;
}
