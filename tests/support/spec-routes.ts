// requirements 2's route tables and section 6's gate tables, read from docs/requirements.md itself: the oracle the route
// table (web/routes/) is checked against. A route or a gate the requirements gain is one the tests expect at once;
// nothing here is a copy. Nothing in the product reads this file.
import { readFileSync } from "node:fs";
import type { Section } from "#web/routes/row.ts";
import type { UserInfo } from "#web/site.ts";

/** A path of requirements 2 as a wouter pattern, its section, and its gate as the section's table writes it. */
export type SpecRow = { pattern: string; section: Section; gate: string };
/** A condition of requirements 6, read from its words, and the pages (patterns) it guards. */
export type SpecGate = {
  /** The condition's words, as its table writes them. */
  condition: string;
  section: Section;
  allows: (u: UserInfo) => boolean;
  pages: readonly string[];
};
export type Spec = { rows: readonly SpecRow[]; gates: readonly SpecGate[]; fields: readonly string[] };

/** What "no gate" reads as in a gate column. */
export const NO_GATE = "—";

/** The text under a heading (`2.8`, `3.3`...) up to the next heading of any level. */
function part(markdown: string, number: string): string {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^#{2,4} ${number.replaceAll(".", "\\.")}[ .]`).test(line));
  if (start === -1) throw new Error(`docs/requirements.md has no section ${number}`);
  const end = lines.findIndex((line, index) => index > start && /^#{2,4} /.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

/** The body rows of the first table in a text, each as its trimmed cells. */
function tableRows(text: string): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith("|"));
  const end = lines.findIndex((line, index) => index > start && !line.startsWith("|"));
  if (start === -1) return [];
  return lines.slice(start + 2, end === -1 ? undefined : end).map((line) =>
    line
      .slice(1, line.trimEnd().endsWith("|") ? line.trimEnd().length - 1 : undefined)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );
}

/** The paths a cell names: each `quoted` one, and "(index)" as the section's own path. */
function pathsIn(cell: string): string[] {
  const quoted = [...cell.matchAll(/`([^`]+)`/g)].map((found) => found[1] ?? "");
  return cell.includes("(index)") ? ["", ...quoted] : quoted;
}

/** A docs/requirements.md path with `{param}` written as a wouter pattern `:param`. */
export const asPattern = (section: string, path: string): string =>
  `${section ? `/${section}` : ""}${path ? `/${path.replace(/^\//, "")}` : ""}`.replace(/\{(\w+)\}/g, ":$1") || "/";

/** A concrete path to request for a pattern: each `:param` filled with a sample value. */
export const sampleOf = (pattern: string): string => pattern.replace(/:(\w+)/g, (_, name: string) => `sample-${name}`);

/** requirements 2.1: the top-level rows; `/client/...` and the like are the sections', and "any other path" none. */
function topLevel(markdown: string): SpecRow[] {
  return tableRows(part(markdown, "2.1"))
    .flatMap(([cell = ""]) => pathsIn(cell))
    .filter((path) => !path.endsWith("/..."))
    .map((path) => ({ pattern: asPattern("", path), section: "public", gate: NO_GATE }));
}

/** requirements 2.8 and 2.9: a table of paths under the section, with their gate column. */
function tabled(markdown: string, number: string, section: Section): SpecRow[] {
  return tableRows(part(markdown, number)).flatMap(([paths = "", _screen, gate = NO_GATE]) =>
    pathsIn(paths).map((path) => ({ pattern: asPattern(section, path), section, gate })),
  );
}

/** requirements 2.10 and 2.11: the paths written in the text (no gates shown), and the index. */
function written(markdown: string, number: string, section: Section): SpecRow[] {
  const text = part(markdown, number);
  const paths = [...(text.includes("The index") ? [""] : []), ...pathsIn(text)];
  return paths.map((path) => ({ pattern: asPattern(section, path), section, gate: NO_GATE }));
}

/** requirements 3.3: the fields of the permissions a condition may name. */
const permissionFields = (markdown: string): string[] =>
  tableRows(part(markdown, "3.3")).map(([field = ""]) => field.replaceAll("`", ""));

/**
 * A condition as requirements 2 and 6 word it ("not viewOnly", "vipTier > 0 and clientServices has 88689",
 * "clientServices does NOT contain `1894`", "hidden when clientServices has 1894"), read independently of
 * web/gates.ts. A wording it cannot read, or a field 3.3 does not list, throws, naming it.
 */
export function conditionOf(words: string, fields: readonly string[]): (u: UserInfo) => boolean {
  const terms = words
    .replaceAll("`", "")
    .split(" and ")
    .map((term) => termOf(term.trim(), fields));
  return (u) => terms.every((term) => term(u));
}

/** One term of a condition: a flag, its negation, a tier above 0, or a list that holds (or not) a code. */
function termOf(term: string, fields: readonly string[]): (u: UserInfo) => boolean {
  const value = (name = "") => {
    if (!fields.includes(name)) throw new Error(`requirements 6 names "${name}", which 3.3 does not list`);
    return (u: UserInfo): unknown => (u as Record<string, unknown>)[name];
  };
  const holds = (name = "", code = "") => {
    const list = value(name);
    return (u: UserInfo) => {
      const found = list(u);
      return Array.isArray(found) && found.includes(code);
    };
  };
  const not = /^not (\w+)$/.exec(term);
  const tier = /^(\w+) > 0$/.exec(term);
  const lacks = /^(?:hidden when (\w+) has|(\w+) does NOT contain) (\w+)$/.exec(term);
  const has = /^(\w+) (?:has|contains) (\w+)$/.exec(term);
  const flag = /^(\w+)$/.exec(term);
  if (not) {
    const read = value(not[1]);
    return (u) => !read(u);
  }
  if (tier) {
    const read = value(tier[1]);
    return (u) => Number(read(u) ?? 0) > 0;
  }
  if (lacks) {
    const listed = holds(lacks[1] ?? lacks[2], lacks[3]);
    return (u) => !listed(u);
  }
  if (has) return holds(has[1], has[2]);
  if (flag) {
    const read = value(flag[1]);
    return (u) => Boolean(read(u));
  }
  throw new Error(`a condition of requirements 2 or 6 the oracle cannot read: "${term}"`);
}

/**
 * Permissions that tell conditions apart: every combination of the values their words test (each flag off and on, each
 * tier 0 and 1, each list with every subset of the codes named).
 */
export function permissionSamples(conditions: readonly string[]): UserInfo[] {
  const values = new Map<string, unknown[]>();
  const codes = new Map<string, Set<string>>();
  for (const term of conditions.flatMap((words) => words.replaceAll("`", "").split(" and "))) {
    const t = term.trim();
    const tier = /^(\w+) > 0$/.exec(t);
    const listed = /(\w+) (?:has|contains|does NOT contain) (\w+)$/.exec(t);
    const flag = /^(?:not )?(\w+)$/.exec(t);
    if (tier) values.set(tier[1] ?? "", ["0", "1"]);
    else if (listed) codes.set(listed[1] ?? "", (codes.get(listed[1] ?? "") ?? new Set()).add(listed[2] ?? ""));
    else if (flag) values.set(flag[1] ?? "", [false, true]);
  }
  for (const [list, named] of codes) {
    const all = [...named];
    values.set(
      list,
      Array.from({ length: 2 ** all.length }, (_, mask) => all.filter((_code, bit) => mask & (1 << bit))),
    );
  }
  let samples: Record<string, unknown>[] = [{ loaded: true }];
  for (const [field, choices] of values)
    samples = samples.flatMap((sample) => choices.map((choice) => ({ ...sample, [field]: choice })));
  return samples as UserInfo[];
}

/** requirements 6.1 and 6.2: each condition and its pages ("every vip/* page": the section's rows under `vip/`). */
function gateTables(markdown: string, rows: readonly SpecRow[], fields: readonly string[]): SpecGate[] {
  const tables: [string, Section][] = [
    ["6.1", "client"],
    ["6.2", "vendor"],
  ];
  return tables.flatMap(([number, section]) =>
    tableRows(part(markdown, number)).map(([condition = "", pages = ""]) => ({
      condition: condition.replaceAll("`", ""),
      section,
      allows: conditionOf(condition, fields),
      pages: pages
        .replace(/\([^)]*\)/g, "")
        .split(",")
        .map((page) => page.trim())
        .flatMap((page) => {
          const every = /^every (\S+)\/\* page$/.exec(page);
          if (!every) return [asPattern(section, page)];
          const prefix = asPattern(section, `${every[1]}/`);
          return rows.filter((row) => row.pattern.startsWith(prefix)).map((row) => row.pattern);
        }),
    })),
  );
}

/** Every route and gate docs/requirements.md gives, read from its text (a test may hand it another). */
export function specOf(markdown: string): Spec {
  const rows = [
    ...topLevel(markdown),
    ...tabled(markdown, "2.8", "client"),
    ...tabled(markdown, "2.9", "vendor"),
    ...written(markdown, "2.10", "uspto"),
    ...written(markdown, "2.11", "uscis"),
  ];
  const fields = permissionFields(markdown);
  return { rows, gates: gateTables(markdown, rows, fields), fields };
}

export const requirementsText = readFileSync(new URL("../../docs/requirements.md", import.meta.url), "utf8");

export const spec = specOf(requirementsText);

/** requirements 6, both tables: each condition and the pages it guards. */
export const section6 = spec.gates;

/** Whether requirements 6 lets a user of these permissions open a page (by its pattern). */
export const specAllows = (pattern: string, permissions: UserInfo, gates = section6): boolean =>
  gates.every((gate) => !gate.pages.includes(pattern) || gate.allows(permissions));
