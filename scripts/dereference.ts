// openapi/portal.yaml with every `$ref` resolved, as `npm run gen:api` writes it into openapi/schema.ts
// (scripts/gen-api.ts) and the tests compare it.
import { dereference } from "@apidevtools/json-schema-ref-parser";

/** The description in `file` with its `$ref`s resolved: local ones only, it never reaches another file or host. */
export const dereferenced = (file: string): Promise<unknown> => dereference(file, { resolve: { external: false } });
