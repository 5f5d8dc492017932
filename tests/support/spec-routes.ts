// requirements 2's route tables and section 6's gate tables, transcribed as written: the oracle the route table
// (web/routes/) is checked against. Nothing in the product reads this file.
import type { UserInfo } from "#web/site.ts";

/** requirements 2.1 (the section rows `/client/...` and the like are covered by 2.8–2.11). `{x}` is a route parameter. */
export const topLevelPaths = [
  "/",
  "/tax-bridge/login",
  "/mfa",
  "/register",
  "/vendoralert",
  "/register/tax",
  "/registered",
  "/login",
  "/videos/{videoId}",
  "/approval/login",
  "/approval/dashboard",
  "/uspto/login",
  "/uspto/matter/login",
  "/uscis/login",
  "/uscis/g1450/login",
] as const;

/** requirements 2.8, path under `/client` ("" is the index) and the gate column as written. */
export const clientRows: readonly [string, string][] = [
  ["", "—"],
  ["home", "—"],
  ["activity", "—"],
  ["batch/upload", "not viewOnly"],
  ["batch/review", "not viewOnly"],
  ["batch/inquiry", "not viewOnly"],
  ["batch/approval", "not viewOnly"],
  ["batch/upload/thank-you", "—"],
  ["docs/bank-holidays", "—"],
  ["docs/expired-policy", "—"],
  ["docs/vendor-letter", "—"],
  ["file/upload", "clientServices has 60542"],
  ["inbox", "—"],
  ["invite/homeowner", "clientServices has 60542"],
  ["invoice/entry", "not viewOnly"],
  ["invoices/expiring", "—"],
  ["invoices/held", "—"],
  ["invoices/import", "not viewOnly"],
  ["invoices/payment", "not viewOnly"],
  ["invoices/pending", "hidden when clientServices has 1894"],
  ["invoices/status", "—"],
  ["invoices/unpaid", "—"],
  ["invoices/cart", "paymentTier and not viewOnly"],
  ["invoices/submitted", "—"],
  ["named-accounts", "—"],
  ["reports/aging", "—"],
  ["reports/coming-due", "—"],
  ["reports/country", "—"],
  ["reports/expiring", "—"],
  ["reports/invoice", "—"],
  ["reports/invoice/view", "—"],
  ["reports/payroll", "—"],
  ["reports/purchase-orders", "clientServices has 87286"],
  ["reports/purchase-orders/view", "clientServices has 87286"],
  ["reports/transaction", "—"],
  ["reports/weekly", "—"],
  ["spot/payment", "not viewOnly"],
  ["spot/pending", "—"],
  ["spot/rates", "—"],
  ["submission/report", "clientServices has 60542"],
  ["support", "—"],
  ["users/admin", "isAdmin"],
  ["users/admin/edit", "isAdmin"],
  ["users/change-password", "—"],
  ["vendors/history", "—"],
  ["vendors/terms", "—"],
  ["vendors/w8-forms", "—"],
  ["vip/audit-report", "vipTier > 0"],
  ["vip/dashboard", "vipTier > 0"],
  ["vip/email-history", "vipTier > 0"],
  ["vip/exceptions", "vipTier > 0"],
  ["vip/invite", "vipTier > 0"],
  ["vip/invoice-tracker", "vipTier > 0 and clientServices has 88689"],
  ["vip/profile", "vipTier > 0"],
  ["vip/send-email", "vipTier > 0"],
  ["vip/submissions", "vipTier > 0"],
  ["vip/submission-history", "vipTier > 0"],
  ["vip/templates", "vipTier > 0"],
  ["vip/user-manual", "vipTier > 0"],
  ["vip/ftp-settings", "vipTier > 0"],
  ["wires/pending", "spotTier"],
  ["wire-instructions", "—"],
  ["forbidden", "—"],
];

/** requirements 2.9, path under `/vendor` and the gate column as written. */
export const vendorRows: readonly [string, string][] = [
  ["", "—"],
  ["home", "—"],
  ["inbox", "—"],
  ["contact-us", "—"],
  ["invoice/entry", "userTier > 0"],
  ["invoice/pending", "userTier > 0"],
  ["invoice/management", "userTier > 0"],
  ["invoice/rejected", "userTier > 0"],
  ["invoice/due", "beneServices has 60562"],
  ["users/admin", "isAdmin"],
  ["users/change-password", "—"],
  ["users/switch-account", "—"],
  ["vip/invites", "—"],
  ["client-terms", "—"],
  ["reports/invoices", "—"],
  ["reports/invoice-status", "—"],
  ["reports/payments-received", "—"],
  ["reports/payments-received/results", "—"],
  ["reports/vip-submissions", "—"],
  ["docs/vip-tutorial", "—"],
  ["docs/vip-user-manual", "—"],
  ["docs/bank-holidays", "—"],
  ["docs/vendor-letter", "—"],
  ["forbidden", "—"],
];

/** requirements 2.10, paths under `/uspto` (no gates shown). */
export const usptoPaths = [
  "",
  "home",
  "admin/change-password",
  "codes/{type}",
  "client-codes",
  "demo",
  "docket",
  "export/{type}",
  "reports/{type}",
  "daily-history",
  "import",
  "matters",
  "missing-users",
  "parked",
  "reconcile",
  "refunds",
  "summary-vs-detail",
  "transaction/{transactionId}",
  "valid-maint",
  "forbidden",
] as const;

/** requirements 2.11, paths under `/uscis` (no gates shown). */
export const uscisPaths = [
  "",
  "home",
  "form-history",
  "downloads",
  "templates",
  "admin/change-password",
  "g1450-form",
  "g1450-review",
  "daily-history",
  "reconcile",
  "import",
  "unprocessed",
  "demo",
  "forbidden",
] as const;

/** A docs/requirements.md path with `{param}` written as a wouter pattern `:param`. */
export const asPattern = (section: string, path: string): string =>
  `${section ? `/${section}` : ""}${path ? `/${path}` : ""}`.replace(/\{(\w+)\}/g, ":$1") || "/";

/** A concrete path to request for a pattern: each `:param` filled with a sample value. */
export const sampleOf = (pattern: string): string => pattern.replace(/:(\w+)/g, (_, name: string) => `sample-${name}`);

const has = (list: readonly string[], code: string) => list.includes(code);
const above0 = (tier: string) => Number(tier) > 0;

/** requirements 6, both tables: each condition, read independently of web/gates.ts, and the pages it guards. */
export const section6: readonly { condition: string; allows: (u: UserInfo) => boolean; pages: readonly string[] }[] = [
  {
    condition: "not viewOnly",
    allows: (u) => !u.viewOnly,
    pages: [
      "/client/batch/upload",
      "/client/batch/review",
      "/client/batch/inquiry",
      "/client/batch/approval",
      "/client/invoice/entry",
      "/client/invoices/import",
      "/client/invoices/payment",
      "/client/spot/payment",
    ],
  },
  {
    condition: "clientServices contains 60542",
    allows: (u) => has(u.clientServices, "60542"),
    pages: ["/client/file/upload", "/client/invite/homeowner", "/client/submission/report"],
  },
  {
    condition: "clientServices does NOT contain 1894",
    allows: (u) => !has(u.clientServices, "1894"),
    pages: ["/client/invoices/pending"],
  },
  {
    condition: "paymentTier and not viewOnly",
    allows: (u) => !!u.paymentTier && !u.viewOnly,
    pages: ["/client/invoices/cart"],
  },
  {
    condition: "clientServices contains 87286",
    allows: (u) => has(u.clientServices, "87286"),
    pages: ["/client/reports/purchase-orders", "/client/reports/purchase-orders/view"],
  },
  {
    condition: "isAdmin (client)",
    allows: (u) => u.isAdmin,
    pages: ["/client/users/admin", "/client/users/admin/edit"],
  },
  {
    condition: "vipTier > 0",
    allows: (u) => above0(u.vipTier),
    pages: clientRows.filter(([path]) => path.startsWith("vip/")).map(([path]) => `/client/${path}`),
  },
  {
    condition: "vipTier > 0 and clientServices contains 88689",
    allows: (u) => above0(u.vipTier) && has(u.clientServices, "88689"),
    pages: ["/client/vip/invoice-tracker"],
  },
  { condition: "spotTier", allows: (u) => !!u.spotTier, pages: ["/client/wires/pending"] },
  {
    condition: "userTier > 0",
    allows: (u) => above0(u.userTier),
    pages: [
      "/vendor/invoice/entry",
      "/vendor/invoice/pending",
      "/vendor/invoice/management",
      "/vendor/invoice/rejected",
    ],
  },
  {
    condition: "beneServices contains 60562",
    allows: (u) => has(u.beneServices, "60562"),
    pages: ["/vendor/invoice/due"],
  },
  { condition: "isAdmin (vendor)", allows: (u) => u.isAdmin, pages: ["/vendor/users/admin"] },
];

/** Whether requirements 6 lets a user of these permissions open a page (by its pattern). */
export const specAllows = (pattern: string, permissions: UserInfo): boolean =>
  section6.every((gate) => !gate.pages.includes(pattern) || gate.allows(permissions));
