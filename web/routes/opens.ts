// Whether a user may open a row of the route table: the table names a gate, the gates read the permissions.
import { gates } from "#web/gates.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { routes } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";

/** The row is not a forbidden screen, and its gate (if any) passes for these permissions. */
export const opens = (entry: RouteEntry, permissions: UserInfo): boolean =>
  entry.screen !== "forbidden" && (entry.gate === undefined || gates[entry.gate](permissions));

/** The table's row of this exact path (a pattern as the table writes it) opens for these permissions; no row, no. */
export const opensPath = (path: string, permissions: UserInfo): boolean =>
  routes.some((entry) => entry.path === path && opens(entry, permissions));
