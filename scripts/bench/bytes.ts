// What every page of the route table ships, gzip: its JavaScript (each script with the chunks it imports) and its
// HTML+CSS, measured on the built assets with a signed-in session where the page needs one; and, side by side, the
// React runtime alone. Read by the CI budget check (scripts/check-budgets.ts) and by `npm run bench`.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { DEMO_PASSWORD, latestCode, startPortal } from "#tests/support/portal.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";

export type PageBytes = { path: string; js: number; htmlCss: number; islands: string[] };

const root = new URL("../..", import.meta.url).pathname;
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
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
}

/** Every page of the route table that answers 200, with the bytes it ships. */
export async function measurePages(): Promise<PageBytes[]> {
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
  const pages: PageBytes[] = [];
  try {
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
      const islands = [...html.matchAll(/data-island="([\w-]+)"/g)].map((m) => m[1] ?? "");
      pages.push({ path, js, htmlCss, islands });
    }
  } finally {
    await portal.close();
  }
  return pages;
}
