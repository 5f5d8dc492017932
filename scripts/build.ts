// Builds the browser's assets (content-hashed, precompressed, listed in dist/manifest.json) and the server as
// JavaScript in dist/server/ and dist/sandbox/, which `npm start` runs with plain node.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import { type BuildOptions, build } from "esbuild";
import { makeImages, webManifest } from "#scripts/images/make-images.ts";
import type { AssetManifest } from "#web/page-context.ts";
import { layoutTexts } from "#web/texts/layout.ts";

const root = new URL("..", import.meta.url).pathname;
const out = join(root, "dist/assets");

/**
 * The .gz an asset is sent as to a browser without Brotli: zopfli writes gzip that every gzip reader opens, 3 % smaller
 * than zlib's best for the login page's script, for a few seconds of build (docs/performance.md, "The login page's
 * script"). The byte budgets measure the React runtime with it too (scripts/bench/bytes.ts).
 */
export const gzipBest = (data: Uint8Array): Promise<Uint8Array> => gzipAsync(data, { numiterations: 5 });

export async function buildAssets(): Promise<void> {
  rmSync(join(root, "dist"), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const browser = {
    absWorkingDir: root,
    bundle: true,
    format: "esm" as const,
    target: ["es2022", "chrome110", "firefox115", "safari16"],
    minify: true,
    jsx: "automatic" as const,
    outdir: out,
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    define: { "process.env.NODE_ENV": '"production"' },
    metafile: true as const,
    legalComments: "none",
    logLevel: "warning" as const,
    // React has had useSyncExternalStore since 18: the shim @preact/signals-react imports for older Reacts is React's own.
    alias: { "use-sync-external-store/shim/index.js": "./web/islands/react-store.ts" },
  } satisfies BuildOptions;
  const islandsBuild = await build({
    ...browser,
    entryPoints: {
      hydrate: "web/islands/hydrate.ts",
      portal: "web/styles/portal.css",
      sections: "web/styles/sections.css",
    },
    splitting: true,
  });
  // Built on its own: shared chunks with the islands would add a request and bytes to the pages of both.
  const standalone = await build({ ...browser, entryPoints: { "idle-warning": "web/client/idle-warning.ts" } });
  const result = {
    metafile: {
      ...islandsBuild.metafile,
      outputs: { ...islandsBuild.metafile.outputs, ...standalone.metafile.outputs },
    },
  };

  const url = (file: string) => `/assets/${relative(out, join(root, file))}`;
  const outputs = Object.entries(result.metafile.outputs);
  const outputFor = (entry: string) => {
    const found = outputs.find(([, output]) => output.entryPoint === entry);
    if (!found) throw new Error(`build: no output for ${entry}`);
    return url(found[0]);
  };

  // Images: those drawn in code (the splash, the icons), then any kept in web/public, each under a hashed name.
  const images: Record<string, string> = {};
  const publish = (name: string, data: Buffer) => {
    const hash = createHash("sha256").update(data).digest("hex").slice(0, 10);
    const hashed = `${basename(name, extname(name))}-${hash}${extname(name)}`;
    writeFileSync(join(out, hashed), data);
    images[name] = `/assets/${hashed}`;
  };
  for (const [name, data] of await makeImages()) publish(name, data);
  const publicDir = join(root, "web/public");
  for (const name of existsSync(publicDir) ? readdirSync(publicDir) : [])
    publish(name, readFileSync(join(publicDir, name)));
  publish("site.webmanifest", Buffer.from(webManifest(layoutTexts.brand, images)));

  // A script and every chunk it imports, so the page can ask for them all at once rather than level by level.
  const imported = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const { path, kind } of result.metafile.outputs[file]?.imports ?? [])
      if (kind === "import-statement") imported(path, seen);
    return seen;
  };
  const hydrate = outputFor("web/islands/hydrate.ts");
  const islands: Record<string, string[]> = {};
  for (const file of readdirSync(join(root, "web/islands")).filter((f) => f.endsWith("-island.tsx"))) {
    const island = outputFor(`web/islands/${file}`);
    const files = new Set([...imported(`dist${island}`), ...imported(`dist${hydrate}`)].map((path) => url(path)));
    files.delete(hydrate);
    islands[file.replace(/-island\.tsx$/, "")] = [...files];
  }

  const manifest: AssetManifest = {
    css: outputFor("web/styles/portal.css"),
    sectionsCss: outputFor("web/styles/sections.css"),
    hydrate,
    idleWarning: outputFor("web/client/idle-warning.ts"),
    islands,
    images,
  };
  writeFileSync(join(root, "dist/manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // The module graph, for the byte-budget check (which chunks each island pulls in).
  writeFileSync(join(root, "dist/meta.json"), JSON.stringify(result.metafile));

  for (const file of readdirSync(out, { recursive: true, encoding: "utf8" })) {
    if (!/\.(js|css|svg|json|webmanifest)$/.test(file)) continue;
    const data = readFileSync(join(out, file));
    writeFileSync(join(out, `${file}.gz`), await gzipBest(data));
    writeFileSync(
      join(out, `${file}.br`),
      brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
  console.log(`built ${Object.keys(result.metafile.outputs).length} assets into dist/assets`);
}

/**
 * esbuild's options for the server's modules: ES modules for Node, packages left as imports of node_modules, each
 * dynamic import its own module, code the entries share in `chunks/`. The bench builds the portal with them too, with
 * a library used plainly in place of one of the portal's modules (scripts/bench/wrappers.ts).
 */
export const serverBuildOptions = (outdir: string, entryPoints: Record<string, string>) =>
  ({
    absWorkingDir: root,
    entryPoints,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node22.13",
    packages: "external",
    jsx: "automatic",
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  }) satisfies BuildOptions;

/**
 * The server (and the pages it renders) and the sandbox in dist/server/ and dist/sandbox/, so a start against a real
 * upstream never loads the sandbox or node:sqlite. Code both use is in dist/chunks/.
 */
export async function buildServer(): Promise<void> {
  for (const folder of ["server", "sandbox", "chunks"])
    rmSync(join(root, "dist", folder), { recursive: true, force: true });
  const result = await build(
    serverBuildOptions(join(root, "dist"), {
      "server/main": "server/main.ts",
      "sandbox/launch": "sandbox/launch.ts",
      "sandbox/main": "sandbox/main.ts",
      "sandbox/app": "sandbox/app.ts",
    }),
  );
  const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"));
  console.log(`built the server and the sandbox into dist/ (${files.length} modules)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildAssets();
  await buildServer();
}
