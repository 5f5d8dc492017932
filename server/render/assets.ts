// The built assets' content-hashed URLs, read once from dist/manifest.json.
import { readFileSync } from "node:fs";
import type { AssetManifest } from "#web/pages/page-context.ts";

export const assetsDir = new URL("../../dist/assets/", import.meta.url);

export function readManifest(): AssetManifest {
  const file = new URL("../../dist/manifest.json", import.meta.url);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as AssetManifest;
  } catch {
    throw new Error("dist/manifest.json is missing: run `npm run build` first");
  }
}
