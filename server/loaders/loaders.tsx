// The loaders a route row may name (`loader` in web/routes/row.ts): each loads, on the server and once the row's gate
// passed, what its screen shows beyond the table's words (through the typed upstream client, `context.upstream`, or the
// portal's own stores), and draws it; the screen places what it drew. A page that shows data is a row and its loader.
import type { ReactElement } from "react";
import type { AppContext } from "#server/context.ts";
import { loadAccountView } from "#server/loaders/account-view.ts";
import { loadLastSignIn } from "#server/loaders/last-sign-in.ts";
import type { PageRequest } from "#server/loaders/screen.ts";
import { AccountSections } from "#web/components/account-sections.tsx";
import { LastSignInNote } from "#web/components/last-sign-in-note.tsx";
import type { LoaderName, RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { routes } from "#web/routes/table.ts";

/** What a loader is given: the app (its typed upstream client, its config), the request, and the row it serves. */
export type LoaderInput = {
  context: AppContext;
  request: PageRequest;
  entry: RouteEntry;
  section: SignedInSection;
  /** The row's path parameters (`/uspto/codes/:type` → `{ type }`). */
  params: Record<string, string>;
};

/** What it draws for the screen, or nothing to show (the screen is drawn without it). */
export type Loader = (input: LoaderInput) => Promise<ReactElement | undefined>;

/** The section's change-password page. */
const changePasswordOf = (section: SignedInSection) =>
  routes.find((row) => row.section === section && row.screen === "change-password")?.path;

export const loaders = {
  // The person's sessions and recent activity, below the change-password form; its forms come back to this page.
  account: async ({ context, request, entry }) => {
    const view = await loadAccountView(context, request, entry.path);
    return view ? <AccountSections view={view} /> : undefined;
  },
  // The sign-in before this one and those elsewhere since, on each section's home.
  "last-sign-in": async ({ request, section }) => {
    const last = await loadLastSignIn(request, changePasswordOf(section) ?? "/");
    return last ? <LastSignInNote last={last} /> : undefined;
  },
} satisfies Record<LoaderName, Loader>;

/** What the row's loader drew for this request; nothing for a row that names none. */
export const loadFor = (input: LoaderInput): Promise<ReactElement | undefined> =>
  input.entry.loader ? loaders[input.entry.loader](input) : Promise.resolve(undefined);
