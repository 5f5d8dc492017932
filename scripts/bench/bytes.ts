// What every page of the route table ships, gzip: its JavaScript (each script with the chunks it imports) and its
// HTML+CSS, measured on the built assets with a signed-in session where the page needs one; and, side by side, the
// React runtime alone. Read by the CI budget check (scripts/check-budgets.ts) and by `npm run bench`.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { startSandbox } from "#server/sandbox/app.ts";
import { SEED_PASSWORD } from "#server/sandbox/seed.ts";
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
    /** The 6-digit code of the newest verification e-mail the sandbox sent to this address. */
    async latestCode(to: string): Promise<string> {
      const mails = (await (await fetch(`${sandbox.url}/sandbox/mail.json?to=${encodeURIComponent(to)}`)).json()) as {
        body: string;
      }[];
      const code = /\b(\d{6})\b/.exec(mails[0]?.body ?? "")?.[1];
      if (!code) throw new Error(`no code in the mail to ${to}`);
      return code;
    },
    async close() {
      await app.close();
      await sandbox.close();
    },
  };
}

/** Every page of the route table that answers 200, with the bytes it ships. */
export async function measurePages(): Promise<PageBytes[]> {
  const portal = await portalOnSandbox();
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
    const code = await portal.latestCode(email);
    ({ cookie } = await inject(`/api/web/${site}/mfa/validate/${code}`, cookie, "POST"));
    return cookie;
  }
  const cookies = {
    client: await signIn(
      "client",
      { shortname: "ACME", username: "alice", password: SEED_PASSWORD },
      "alice@acme.example",
    ),
    vendor: await signIn("vendor", { username: "vera", password: SEED_PASSWORD }, "vera@vendor.example"),
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
