// A redirect target is followed only when it is a path on this origin: never `//host`, `/\host` or a URL.
export function safePath(target: string): string | undefined {
  if (!target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return undefined;
  if ([...target].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  const url = new URL(target, "http://portal.invalid");
  if (url.host !== "portal.invalid") return undefined;
  // Resolving dot segments can make a path protocol-relative: `/..//evil.example` becomes `//evil.example`.
  const path = `${url.pathname}${url.search}`;
  return path.startsWith("//") ? undefined : path;
}
