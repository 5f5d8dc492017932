// What every page of the route table ships, gzip: its JavaScript (each script with the chunks it imports) and its
// HTML+CSS, measured on the built assets with a signed-in session where the page needs one; and, side by side, the
// React runtime alone. Read by the CI budget check (scripts/check-budgets.ts) and by `npm run bench`.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, mailboxCode, signIn } from "#harness/sign-in.ts";
import { startSandbox } from "#sandbox/app.ts";
import { gzipBest } from "#scripts/build.ts";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";

/** `js` is the islands' JavaScript; `idleJs` the idle warning's script, which every signed-in page carries. */
export type PageBytes = { path: string; js: number; idleJs: number; htmlCss: number; islands: string[] };

const root = new URL("../..", import.meta.url).pathname;
const meta = JSON.parse(readFileSync(`${root}dist/meta.json`, "utf8")) as {
  outputs: Record<string, { imports: { path: string; kind: string }[]; entryPoint?: string }>;
};
const isIdleWarning = (url: string) => meta.outputs[`dist${url}`]?.entryPoint === "web/client/idle-warning.ts";
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

export async function reactRuntimeGzip(): Promise<number> {
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
  return (await gzipBest(result.outputFiles[0]?.contents ?? new Uint8Array())).length;
}

/** The portal in this process, on the embedded sandbox, answering injected requests (nothing listens). */
async function portalOnSandbox() {
  const sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1" });
  const env = { NODE_ENV: "test", SESSION_KEY: randomBytes(32).toString("hex") };
  const app = await buildApp({
    config: loadConfig(env, () => {}),
    upstreamUrl: sandbox.url,
    sandbox: true,
    logger: false,
  });
  return {
    app,
    code: mailboxCode(sandbox.url),
    async close() {
      await app.close();
      await sandbox.close();
    },
  };
}

/** Every page of the route table that answers 200, with the bytes it ships. */
export async function measurePages(): Promise<PageBytes[]> {
  const portal = await portalOnSandbox();
  const signedIn = {
    client: await signIn(portal.app, accounts.alice, portal.code),
    vendor: await signIn(portal.app, accounts.vera, portal.code),
  };
  const pages: PageBytes[] = [];
  try {
    for (const entry of routes) {
      const path = entry.path.replace(/:(\w+)/g, "sample-$1");
      // Every page with the session as it was signed in (a copy), a public page with none.
      const visitor =
        entry.section === "public" ? new PortalClient(portal.app) : signedIn[sectionAudience[entry.section]].copy();
      const answer = await visitor.get(path);
      if (answer.status !== 200) continue;
      const html = answer.text;
      const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"|rel="modulepreload" href="([^"]+)"/g)].map(
        (m) => m[1] ?? m[2] ?? "",
      );
      const bytes = (urls: string[]) =>
        [...new Set(urls.flatMap((url) => [...closure(url)]))].reduce((sum, url) => sum + gz(url), 0);
      const js = bytes(scripts.filter((url) => !isIdleWarning(url)));
      const idleJs = bytes(scripts.filter(isIdleWarning));
      const css = [...html.matchAll(/rel="stylesheet" href="([^"]+)"/g)].reduce((sum, m) => sum + gz(m[1] ?? ""), 0);
      const htmlCss = gzipSync(html, { level: 9 }).length + css;
      const islands = [...html.matchAll(/data-island="([\w-]+)"/g)].map((m) => m[1] ?? "");
      pages.push({ path, js, idleJs, htmlCss, islands });
    }
  } finally {
    await portal.close();
  }
  return pages;
}
