// requirements 2.10: the patent-fee section (its gates are not shown, so none).
import { type RouteEntry, rowsOf, securityEntry } from "#web/routes/row.ts";

const { row, same } = rowsOf("uspto");
const home = row("/home", "Patent Fees", {
  screen: "home",
  loader: "last-sign-in",
  group: "Patent fees",
});

export const usptoRoutes: readonly RouteEntry[] = [
  same("", home),
  home,
  row("/matters", "Matters", { group: "Patent fees", about: "Legal matters and their fees." }),
  row("/docket", "Docket", { group: "Patent fees", about: "Fee deadlines on the docket." }),
  row("/client-codes", "Client Codes", { group: "Patent fees", about: "Client codes of matters." }),
  row("/codes/:type", "Codes", { about: "Codes of one type." }),
  row("/daily-history", "Daily History", { group: "Patent fees", about: "Each day's fee payments." }),
  row("/import", "Import", { group: "Patent fees", about: "Import matters or fees." }),
  row("/export/:type", "Export", { about: "Export of one type." }),
  row("/reports/:type", "Reports", { about: "A report of one type." }),
  row("/missing-users", "Missing Users", { group: "Patent fees", about: "Matters without a user." }),
  row("/parked", "Parked", { group: "Patent fees", about: "Payments parked for later." }),
  row("/reconcile", "Reconcile", {
    group: "Patent fees",
    about: "Reconcile fees paid with the patent office.",
  }),
  row("/refunds", "Refunds", { group: "Patent fees", about: "Fee refunds." }),
  row("/summary-vs-detail", "Summary vs Detail", {
    group: "Patent fees",
    about: "Summary totals against their details.",
  }),
  row("/transaction/:transactionId", "Transaction", { about: "One fee transaction." }),
  row("/valid-maint", "Valid Maintenance", {
    group: "Patent fees",
    about: "Maintenance fees that are valid to pay.",
  }),
  row("/demo", "Demo", { group: "Patent fees", about: "A demonstration of the patent-fee section." }),
  row("/admin/change-password", "Change Password", { screen: "change-password", loader: "account", ...securityEntry }),
  row("/forbidden", "Forbidden", { screen: "forbidden" }),
];
