// Node's node:sqlite, loaded without the one ExperimentalWarning Node 22 prints for it (Node 24 prints none): the
// sandbox's choice of it is deliberate (docs/decisions.md, "Runtime and install"), and its output stays the same on
// both lines. Every other warning is printed as ever.
import { createRequire } from "node:module";
import type * as Sqlite from "node:sqlite";

const load = createRequire(import.meta.url);

/** node:sqlite's module; Node 22's warning about SQLite being experimental is dropped while it loads. */
export function loadSqlite(): typeof Sqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).startsWith("SQLite is an experimental feature")) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return load("node:sqlite") as typeof Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}
