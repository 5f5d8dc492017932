// Byte budgets, quick mode (run in CI): for every page of the route table, the JavaScript and the HTML+CSS it
// ships, gzip. Pages without an island ship no JavaScript; the login page's JavaScript stays within 1.15× the
// React runtime alone (measured here, side by side); the login page's HTML+CSS fits the first round trip.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { DEMO_PASSWORD, latestCode, startPortal } from "#tests/support/portal.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";

const LOGIN_HTML_CSS_BUDGET = 14_600;
const LOGIN_JS_FACTOR = 1.15;

const root = new URL("..", import.meta.url).pathname;
const meta = JSON.parse(readFileSync(`${root}dist/meta.json`, "utf8")) as {
  outputs: Record<string, { imports: { path: string; kind: string }[] }>;
};
const gz = (file: string) => readFileSync(`${root}dist${file}.gz`).length;

/** A script and every chunk it imports statically: what the browser must fetch to run it. */
function closure(url: string, seen = new Set<string>()): Set<string> {
  if (seen.has(url)) return seen;
  seen.add(url);
  for (const imported of meta.outputs[`dist${url}`]?.imports ?? []) {
    if (imported.kind === "import-statement") closure(`/${imported.path.replace(/^dist\//, "")}`, seen);
  }
  return seen;
}

async function reactRuntimeGzip(): Promise<number> {
  const result = await build({
    stdin: {
      contents:
        'import { hydrateRoot } from "react-dom/client"; import { createElement } from "react"; globalThis.x = [hydrateRoot, createElement];',
      resolveDir: root,
    },
    bundle: true,
    minify: true,
    format: "esm",
    write: false,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
}

const portal = await startPortal({ listen: false });
const inject = async (url: string, cookie = "", method: "GET" | "POST" = "GET", payload?: object) => {
  const answer = await portal.app.inject({
    method,
    url,
    headers: { cookie, "x-portal-request": "1" },
    ...(payload ? { payload } : {}),
  });
  const set = answer.headers["set-cookie"];
  return { answer, cookie: (Array.isArray(set) ? set[0] : set)?.split(";")[0] ?? cookie };
};
async function signIn(site: "client" | "vendor", body: object, email: string) {
  let { cookie } = await inject(`/api/auth/${site}`, "", "POST", body);
  ({ cookie } = await inject(`/api/web/${site}/mfa/generate`, cookie, "POST"));
  const code = await latestCode(portal.sandboxUrl, email);
  ({ cookie } = await inject(`/api/web/${site}/mfa/validate/${code}`, cookie, "POST"));
  return cookie;
}
const cookies = {
  client: await signIn(
    "client",
    { shortname: "ACME", username: "alice", password: DEMO_PASSWORD },
    "alice@acme.example",
  ),
  vendor: await signIn("vendor", { username: "vera", password: DEMO_PASSWORD }, "vera@vendor.example"),
};

const failures: string[] = [];
const rows: string[] = [];
const react = await reactRuntimeGzip();
for (const entry of routes) {
  const path = entry.path.replace(/:(\w+)/g, "sample-$1");
  const cookie = entry.section === "public" ? "" : cookies[sectionAudience[entry.section]];
  const { answer } = await inject(path, cookie);
  if (answer.statusCode !== 200) continue;
  const html = answer.body;
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"|rel="modulepreload" href="([^"]+)"/g)].map(
    (m) => m[1] ?? m[2] ?? "",
  );
  const js = [...new Set(scripts.flatMap((url) => [...closure(url)]))].reduce((sum, url) => sum + gz(url), 0);
  const css = [...html.matchAll(/rel="stylesheet" href="([^"]+)"/g)].reduce((sum, m) => sum + gz(m[1] ?? ""), 0);
  const htmlCss = gzipSync(html, { level: 9 }).length + css;
  const islands = [...html.matchAll(/data-island="([\w-]+)"/g)].map((m) => m[1]);
  rows.push(`${path.padEnd(40)} ${String(js).padStart(7)} ${String(htmlCss).padStart(8)}  ${islands.join(",")}`);
  if (islands.length === 0 && js > 0) failures.push(`${path}: ${js} bytes of JavaScript on a page without an island`);
  if (path === "/") {
    if (js > react * LOGIN_JS_FACTOR)
      failures.push(`/: JavaScript ${js} > ${LOGIN_JS_FACTOR} × React runtime ${react}`);
    if (htmlCss > LOGIN_HTML_CSS_BUDGET) failures.push(`/: HTML+CSS ${htmlCss} > ${LOGIN_HTML_CSS_BUDGET}`);
  }
}
await portal.close();

console.log(`${"page".padEnd(40)} ${"JS gz".padStart(7)} ${"HTML+CSS".padStart(8)}  islands`);
console.log(rows.join("\n"));
console.log(`React runtime alone: ${react} bytes gzip; login budget ${Math.round(react * LOGIN_JS_FACTOR)}`);
if (failures.length > 0) {
  console.error(`\nBudgets broken:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`\n${rows.length} pages within budget`);
