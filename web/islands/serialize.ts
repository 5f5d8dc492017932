// Island props as JSON that is safe inside a <script> element: no `<`, `>`, `&` or line separators left raw.
const unsafe: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

export const serializeProps = (props: unknown): string =>
  JSON.stringify(props ?? {}).replace(/[<>&\u2028\u2029]/g, (c) => unsafe[c] ?? c);
