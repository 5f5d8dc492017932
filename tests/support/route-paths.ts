// Concrete paths of the route table's rows, for tests that walk every page.
import { routes } from "#web/routes/table.ts";

/** A row's pattern with each parameter filled in (`/uspto/codes/:type` → `/uspto/codes/x1`). */
export const concrete = (path: string) => path.replace(/:\w+/g, "x1");

/** One concrete path for each section row of the route table. */
export const sectionPaths = routes.filter((entry) => entry.section !== "public").map((entry) => concrete(entry.path));
