// The built assets' content-hashed URLs, read once from dist/manifest.json.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ConfigError } from "#server/config.ts";
import { projectFile } from "#server/project-files.ts";
import type { AssetManifest } from "#web/page-context.ts";

/** dist/assets/ from the project's root: the same folder whether the server runs from source or from dist/server/. */
export const assetsDir = pathToFileURL(`${projectFile("dist/assets")}/`);

export function readManifest(): AssetManifest {
  const file = projectFile("dist/manifest.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as AssetManifest;
  } catch {
    throw new ConfigError("dist/manifest.json is missing: run `npm run build` first");
  }
}
