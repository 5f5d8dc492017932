// requirements 2.11: the immigration-fee section (its gates are not shown, so none).
import { type RouteEntry, rowsOf, securityEntry } from "#web/routes/row.ts";

const { row, same } = rowsOf("uscis");
const home = row("/home", "Immigration Fees", {
  screen: "home",
  loader: "last-sign-in",
  group: "Immigration fees",
});

export const uscisRoutes: readonly RouteEntry[] = [
  same("", home),
  home,
  // requirements 2.11: these three show the same home screen.
  same("/form-history", home),
  same("/downloads", home),
  same("/templates", home),
  row("/g1450-form", "G-1450 Form", {
    group: "Immigration fees",
    about: "The G-1450 card-authorisation form.",
  }),
  row("/g1450-review", "G-1450 Review", {
    group: "Immigration fees",
    about: "Review G-1450 forms before sending.",
  }),
  row("/daily-history", "Daily History", {
    group: "Immigration fees",
    about: "Each day's fee payments.",
  }),
  row("/reconcile", "Reconcile", { group: "Immigration fees", about: "Reconcile fees paid." }),
  row("/import", "Import", { group: "Immigration fees", about: "Import forms or fees." }),
  row("/unprocessed", "Unprocessed", { group: "Immigration fees", about: "Forms not yet processed." }),
  row("/demo", "Demo", {
    group: "Immigration fees",
    about: "A demonstration of the immigration-fee section.",
  }),
  row("/admin/change-password", "Change Password", { screen: "change-password", loader: "account", ...securityEntry }),
  row("/forbidden", "Forbidden", { screen: "forbidden" }),
];
