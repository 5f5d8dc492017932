// Files the portal reads at run time, found from the project's root whether it runs from source or compiled.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest folder above this module that holds the project's package.json. */
function findRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, "package.json"))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error("the project's package.json was not found above the server's code");
    folder = parent;
  }
  return folder;
}

export const projectRoot = findRoot();
export const projectFile = (path: string) => join(projectRoot, path);
