// The docs a newcomer reads (docs/*.md, README.md, CONTRIBUTING.md, SECURITY.md) name only what exists: every repository
// path they write (backticked, linked or in a sentence) is a file or folder of the project, every link to a heading
// finds it, and every section the docs and the code cite by its title in quotes after decisions.md, performance.md,
// routes.md or SECURITY.md is a heading there (or a paragraph's bold lead). They stay short enough to read: together at most 208 KB, and docs/performance.md at
// most 250 lines.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const docs = [
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  "README.md",
  "CONTRIBUTING.md",
  "SECURITY.md",
];
const textOf = (path: string) => readFileSync(join(root, path), "utf8");

/** The folders a repository path begins with; anything else (a route, `dist/`, `artifacts/`) is not checked. */
const TOP = ["server", "web", "sandbox", "tests", "scripts", "openapi", "harness", "deploy", "docs", ".ci"];

/**
 * The repository paths a text writes: a top folder followed by a file's name (with its extension) or a folder's (with
 * its `/`), not inside a URL or an address (`/sandbox/…`), and not a pattern (`<section>`, `{param}`, `*`, `…`). A
 * route of the requirements' tables (`docs/bank-holidays`) has neither, and is no path.
 */
function pathsIn(text: string): string[] {
  const found = new Set<string>();
  const pattern = new RegExp(
    `(?<![\\w./:{}~$-])((?:${TOP.map((top) => top.replace(".", "\\.")).join("|")})/[^\\s\`'"()\\[\\],;|]*)`,
    "g",
  );
  for (const [, match] of text.matchAll(pattern)) {
    const path = (match ?? "").replace(/[.:]+$/, "").replace(/#.*$/, "");
    if (/[<>{}*…]|\.\.\./.test(path) || !/\/$|\/[^/]*\.\w+$/.test(path)) continue;
    found.add(path);
  }
  return [...found];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const headingsOf = (markdown: string) =>
  [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => (heading ?? "").replace(/`/g, "").trim());
/** What a citation may name: a heading, or the bold words a paragraph or a list item begins with. */
const titlesOf = (markdown: string) => [
  ...headingsOf(markdown),
  ...[...markdown.matchAll(/^(?:[-*] |\d+\. )?\*\*([^*]+)\*\*/gm)].map(([, lead]) =>
    (lead ?? "").replace(/`/g, "").trim(),
  ),
];

describe("the docs", () => {
  it("name only repository paths that exist", () => {
    const missing = docs.flatMap((doc) =>
      pathsIn(textOf(doc))
        .filter((path) => !existsSync(join(root, path)))
        .map((path) => `${doc}: ${path}`),
    );
    assert.deepEqual(missing, []);
  });

  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const [, target] of textOf(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split("#");
        const path = file ? normalize(join(dirname(doc), file)) : doc;
        if (!existsSync(join(root, path))) {
          broken.push(`${doc}: ${target} (no ${path})`);
          continue;
        }
        if (anchor && path.endsWith(".md") && !headingsOf(textOf(path)).some((heading) => anchorOf(heading) === anchor))
          broken.push(`${doc}: ${target} (no heading #${anchor} in ${path})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("cite only sections that exist, where the docs and the code name one of decisions.md, SECURITY.md and the like", () => {
    const cited = ["decisions.md", "performance.md", "routes.md", "SECURITY.md"];
    const headings = new Map(
      cited.map((name) => [name, titlesOf(textOf(name === "SECURITY.md" ? name : `docs/${name}`))]),
    );
    const sources = (folder: string): string[] =>
      readdirSync(join(root, folder)).flatMap((name) => {
        const path = join(folder, name);
        if (statSync(join(root, path)).isDirectory()) return sources(path);
        return /\.(ts|tsx|sh|ya?ml|md|pins)$|^Dockerfile$|^run$/.test(name) ? [path] : [];
      });
    const files = [
      ...docs,
      "Dockerfile",
      ...["server", "web", "sandbox", "tests", "scripts", "harness", "deploy", "openapi", ".ci"].flatMap(sources),
    ];
    const wrong: string[] = [];
    for (const file of files) {
      // A comment's citation may run over its lines: join them, without their comment markers.
      const text = textOf(file).replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, " ");
      for (const [, name, title] of text.matchAll(
        /\b(decisions\.md|performance\.md|routes\.md|SECURITY\.md),? "([^"]+)"/g,
      )) {
        const known = headings.get(name ?? "") ?? [];
        if (!known.some((heading) => heading.startsWith(title ?? ""))) wrong.push(`${file}: ${name}, "${title}"`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("are together at most 208 KB, and docs/performance.md at most 250 lines", () => {
    const bytes = docs.reduce((sum, doc) => sum + statSync(join(root, doc)).size, 0);
    assert.ok(bytes <= 208_000, `the docs are ${bytes.toLocaleString("en")} bytes`);
    const lines = textOf("docs/performance.md").trimEnd().split("\n").length;
    assert.ok(lines <= 250, `docs/performance.md is ${lines} lines`);
  });
});
