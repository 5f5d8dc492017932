// Generates openapi/schema.ts from openapi/portal.yaml, the one description of the upstream: its types
// (openapi-typescript), which the server and the islands take every upstream type from, and the description itself with
// every `$ref` resolved (scripts/dereference.ts), which the portal's operations are read from at start
// (server/upstream/operations.ts), so that nothing is resolved as it starts. `npm run check:api` compares.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { dereferenced } from "#scripts/dereference.ts";
import { projectFile } from "#server/project-files.ts";

const source = projectFile("openapi/portal.yaml");
const types = astToString(await openapiTS(pathToFileURL(source)));
const description = JSON.stringify(await dereferenced(source), null, 2);
writeFileSync(
  projectFile("openapi/schema.ts"),
  [
    "// Generated from openapi/portal.yaml by `npm run gen:api` (scripts/gen-api.ts): do not edit.",
    types,
    "/** openapi/portal.yaml, every `$ref` resolved. */",
    `export const description: unknown = ${description};`,
    "",
  ].join("\n"),
);
