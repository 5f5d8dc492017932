// The built assets' content-hashed URLs, read once from dist/manifest.json.
import { readFileSync } from "node:fs";
import type { AssetManifest } from "#web/pages/page-context.ts";

export const assetsDir = new URL("../../dist/assets/", import.meta.url);

export function readManifest(): AssetManifest {
  const file = new URL("../../dist/manifest.json", import.meta.url);
  try {
    const manifest = JSON.parse(readFileSync(file, "utf8")) as AssetManifest;
    // The same for the process's whole life, so it writes as one word in the props a kept page is found by.
    return Object.defineProperty(manifest, "toJSON", { value: () => "assets", enumerable: false });
  } catch {
    throw new Error("dist/manifest.json is missing: run `npm run build` first");
  }
}
