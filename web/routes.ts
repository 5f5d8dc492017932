// The one route table (SPEC.md section 2): path, screen, title, section, gate. Server routing, gates, menus,
// titles and tests all read it; adding a route means adding one row here.
import { parse } from "regexparam";
import type { GateName } from "#web/gates.ts";
import type { Site } from "#web/site.ts";

/** `public` pages need no session; every other section needs a signed-in session of its audience. */
export type Section = "public" | "client" | "vendor" | "uspto" | "uscis";

export type Screen =
  | "login"
  | "mfa"
  | "link-login"
  | "tax-bridge-login"
  | "home"
  | "about"
  | "pdf"
  | "change-password"
  | "forbidden"
  | "not-found";

export type NavGroup =
  | "Home"
  | "Invoices"
  | "Batches"
  | "Spot & Wires"
  | "Reports"
  | "Vendors"
  | "VIP"
  | "Users"
  | "Documents"
  | "Help"
  | "Patent fees"
  | "Immigration fees";

export type PdfFile = "BankHolidays.pdf" | "ExpiringInvoicesPolicy.pdf" | "VendorLetter.pdf";

export type RouteEntry = {
  /** A wouter/regexparam pattern, e.g. `/uspto/codes/:type`. */
  path: string;
  section: Section;
  screen: Screen;
  title: string;
  gate?: GateName;
  /** Where the navigation lists it; unset: not listed (e.g. a page reached from another). */
  group?: NavGroup;
  /** For screens whose content SPEC.md does not show: what the screen is for, said plainly. */
  about?: string;
  pdf?: PdfFile;
};

type Extra = Partial<Omit<RouteEntry, "path" | "section" | "title">>;
const row =
  (section: Section) =>
  (path: string, title: string, extra: Extra = {}): RouteEntry => ({
    path: section === "public" ? path : `/${section}${path}`,
    section,
    title,
    screen: extra.screen ?? (extra.pdf ? "pdf" : "about"),
    ...extra,
  });

const pub = row("public");
const client = row("client");
const vendor = row("vendor");
const uspto = row("uspto");
const uscis = row("uscis");

export const routes: readonly RouteEntry[] = [
  // 2.1 Top-level routes
  pub("/", "Login", { screen: "login" }),
  pub("/tax-bridge/login", "Tax Bridge Login", { screen: "tax-bridge-login" }),
  pub("/mfa", "Verify This Device", { screen: "mfa" }),
  pub("/register", "Registration", { about: "Registration of a new vendor with the payments provider." }),
  pub("/vendoralert", "Registration", { about: "Registration of a new vendor with the payments provider." }),
  pub("/register/tax", "Tax Registration", { about: "Tax registration of a vendor." }),
  pub("/registered", "Registration Received", { about: "Confirmation that a registration was received." }),
  pub("/login", "Login", { screen: "link-login" }),
  pub("/videos/:videoId", "Video", { about: "A training video of the portal." }),
  pub("/approval/login", "Approval Login", { about: "Sign-in for approvers." }),
  pub("/approval/dashboard", "Approval Dashboard", { about: "Payments waiting for an approver's decision." }),
  pub("/uspto/login", "Patent Fees Login", { about: "Sign-in for the patent-fee section." }),
  pub("/uspto/matter/login", "Patent Matter Login", { about: "Sign-in to one patent matter." }),
  pub("/uscis/login", "Immigration Fees Login", { about: "Sign-in for the immigration-fee section." }),
  pub("/uscis/g1450/login", "G-1450 Login", { about: "Sign-in to the G-1450 card-authorisation form." }),

  // 2.8 Client section
  client("", "Home", { screen: "home" }),
  client("/home", "Home", { screen: "home", group: "Home" }),
  client("/activity", "Activity", { group: "Home", about: "Recent activity on this account." }),
  client("/inbox", "Inbox", { group: "Home", about: "Messages from the payments provider." }),
  client("/invoice/entry", "Invoice Entry", {
    gate: "notViewOnly",
    group: "Invoices",
    about: "Enter invoices to pay.",
  }),
  client("/invoices/import", "Invoice Import", {
    gate: "notViewOnly",
    group: "Invoices",
    about: "Import invoices from a file.",
  }),
  client("/invoices/payment", "Pay Invoices", {
    gate: "notViewOnly",
    group: "Invoices",
    about: "The invoice report in payment mode: choose invoices to pay.",
  }),
  client("/invoices/cart", "Invoice Cart", {
    gate: "paymentTierNotViewOnly",
    group: "Invoices",
    about: "Invoices chosen for payment.",
  }),
  client("/invoices/pending", "Pending Invoices", {
    gate: "lacksService1894",
    group: "Invoices",
    about: "Invoices waiting to be paid.",
  }),
  client("/invoices/submitted", "Submitted Invoices", { group: "Invoices", about: "Invoices submitted for payment." }),
  client("/invoices/status", "Invoice Status", { group: "Invoices", about: "Where each invoice stands." }),
  client("/invoices/unpaid", "Unpaid Invoices", { group: "Invoices", about: "Invoices not yet paid." }),
  client("/invoices/held", "Held Invoices", { group: "Invoices", about: "Invoices on hold." }),
  client("/invoices/expiring", "Expiring Invoices", { group: "Invoices", about: "Invoices about to expire." }),
  client("/batch/upload", "Batch Upload", {
    gate: "notViewOnly",
    group: "Batches",
    about: "Upload a batch of payments.",
  }),
  client("/batch/upload/thank-you", "Batch Uploaded", { about: "Confirmation that a batch was uploaded." }),
  client("/batch/review", "Batch Review", { gate: "notViewOnly", group: "Batches", about: "Review uploaded batches." }),
  client("/batch/inquiry", "Batch Inquiry", { gate: "notViewOnly", group: "Batches", about: "Look up a batch." }),
  client("/batch/approval", "Batch Approval", {
    gate: "notViewOnly",
    group: "Batches",
    about: "Approve batches for payment.",
  }),
  client("/file/upload", "File Upload", {
    gate: "hasService60542",
    group: "Batches",
    about: "Upload a file to the payments provider.",
  }),
  client("/spot/payment", "Spot Payment", {
    gate: "notViewOnly",
    group: "Spot & Wires",
    about: "Invoice entry in spot mode: pay at today's rate.",
  }),
  client("/spot/pending", "Spot Pending", { group: "Spot & Wires", about: "Spot payments waiting to be sent." }),
  client("/spot/rates", "Spot Rates", { group: "Spot & Wires", about: "Today's spot exchange rates." }),
  client("/wires/pending", "Pending Wires", {
    gate: "spotTier",
    group: "Spot & Wires",
    about: "The pending screen in spot mode: wires waiting to be sent.",
  }),
  client("/wire-instructions", "Wire Instructions", { group: "Spot & Wires", about: "Where to send funds by wire." }),
  client("/named-accounts", "Named Accounts", {
    group: "Spot & Wires",
    about: "Accounts held in this company's name.",
  }),
  client("/reports/aging", "Aging Report", { group: "Reports", about: "Open invoices by age." }),
  client("/reports/coming-due", "Coming Due", {
    group: "Reports",
    about: "The expiring screen with parameter coming-due: invoices coming due.",
  }),
  client("/reports/country", "Country Report", { group: "Reports", about: "Payments by country." }),
  client("/reports/expiring", "Expiring Report", { group: "Reports", about: "Invoices about to expire." }),
  client("/reports/invoice", "Invoice Report", { group: "Reports", about: "Invoices by status and date." }),
  client("/reports/invoice/view", "Invoice Report View", { about: "One invoice of the invoice report." }),
  client("/reports/payroll", "Payroll Report", { group: "Reports", about: "Payroll payments." }),
  client("/reports/purchase-orders", "Purchase-Order Report", {
    gate: "hasService87286",
    group: "Reports",
    about: "Purchase orders and their invoices.",
  }),
  client("/reports/purchase-orders/view", "Purchase-Order View", {
    gate: "hasService87286",
    about: "One purchase order.",
  }),
  client("/reports/transaction", "Transaction Report", { group: "Reports", about: "Payments sent." }),
  client("/reports/weekly", "Weekly Report", { group: "Reports", about: "This week's payments." }),
  client("/submission/report", "Submission Report", {
    gate: "hasService60542",
    group: "Reports",
    about: "Submissions received (the tax-bridge landing).",
  }),
  client("/vendors/history", "Vendor History", { group: "Vendors", about: "Payments to each vendor." }),
  client("/vendors/terms", "Vendor Terms", { group: "Vendors", about: "Payment terms agreed with vendors." }),
  client("/vendors/w8-forms", "Vendor W-8 Forms", { group: "Vendors", about: "Vendors' W-8 tax forms." }),
  client("/invite/homeowner", "Invite a Homeowner", {
    gate: "hasService60542",
    group: "Vendors",
    about: "Invite a homeowner to be paid through the portal.",
  }),
  client("/vip/dashboard", "VIP Dashboard", {
    gate: "vipTier",
    group: "VIP",
    about: "The VIP vendor-invoicing programme at a glance.",
  }),
  client("/vip/invite", "VIP Invite", { gate: "vipTier", group: "VIP", about: "Invite vendors to the VIP programme." }),
  client("/vip/submissions", "VIP Submissions", {
    gate: "vipTier",
    group: "VIP",
    about: "Invoices vendors submitted through VIP.",
  }),
  client("/vip/submission-history", "VIP Submission History", {
    gate: "vipTier",
    group: "VIP",
    about: "Earlier VIP submissions.",
  }),
  client("/vip/invoice-tracker", "VIP Invoice Tracker", {
    gate: "vipTierAndService88689",
    group: "VIP",
    about: "Track VIP invoices.",
  }),
  client("/vip/exceptions", "VIP Exceptions", {
    gate: "vipTier",
    group: "VIP",
    about: "VIP submissions that need attention.",
  }),
  client("/vip/audit-report", "VIP Audit Report", {
    gate: "vipTier",
    group: "VIP",
    about: "Audit trail of the VIP programme.",
  }),
  client("/vip/email-history", "VIP E-mail History", {
    gate: "vipTier",
    group: "VIP",
    about: "E-mails sent to VIP vendors.",
  }),
  client("/vip/send-email", "VIP Send E-mail", { gate: "vipTier", group: "VIP", about: "E-mail VIP vendors." }),
  client("/vip/templates", "VIP Templates", {
    gate: "vipTier",
    group: "VIP",
    about: "E-mail templates of the VIP programme.",
  }),
  client("/vip/profile", "VIP Profile", { gate: "vipTier", group: "VIP", about: "This company's VIP profile." }),
  client("/vip/ftp-settings", "VIP File-Transfer Settings", {
    gate: "vipTier",
    group: "VIP",
    about: "File-transfer settings of the VIP programme.",
  }),
  client("/vip/user-manual", "VIP User Manual", {
    gate: "vipTier",
    group: "VIP",
    about: "The VIP user manual, client edition.",
  }),
  client("/users/admin", "User Administration", {
    gate: "isAdmin",
    group: "Users",
    about: "Manage this company's users.",
  }),
  client("/users/admin/edit", "Edit User", { gate: "isAdmin", about: "Edit one user." }),
  client("/users/change-password", "Change Password", { screen: "change-password", group: "Users" }),
  client("/docs/bank-holidays", "Bank Holidays", { pdf: "BankHolidays.pdf", group: "Documents" }),
  client("/docs/expired-policy", "Expiring Invoices Policy", { pdf: "ExpiringInvoicesPolicy.pdf", group: "Documents" }),
  client("/docs/vendor-letter", "Vendor Letter", { pdf: "VendorLetter.pdf", group: "Documents" }),
  client("/support", "Support", { group: "Help", about: "How to reach the payments provider's support team." }),
  client("/forbidden", "Forbidden", { screen: "forbidden" }),

  // 2.9 Vendor section
  vendor("", "Home", { screen: "home" }),
  vendor("/home", "Home", { screen: "home", group: "Home" }),
  vendor("/inbox", "Inbox", { group: "Home", about: "Messages from the payments provider." }),
  vendor("/invoice/entry", "Invoice Entry", {
    gate: "userTier",
    group: "Invoices",
    about: "Submit an invoice to a client.",
  }),
  vendor("/invoice/pending", "Pending Invoices", {
    gate: "userTier",
    group: "Invoices",
    about: "Invoices waiting for the client.",
  }),
  vendor("/invoice/management", "Invoice Management", {
    gate: "userTier",
    group: "Invoices",
    about: "Manage submitted invoices.",
  }),
  vendor("/invoice/rejected", "Rejected Invoices", {
    gate: "userTier",
    group: "Invoices",
    about: "Invoices a client rejected.",
  }),
  vendor("/invoice/due", "Invoices Due", {
    gate: "hasBeneService60562",
    group: "Invoices",
    about: "Invoices that are due (the tax-bridge landing).",
  }),
  vendor("/reports/invoices", "Invoices Report", { group: "Reports", about: "Invoices submitted to clients." }),
  vendor("/reports/invoice-status", "Invoice Status Report", { group: "Reports", about: "Where each invoice stands." }),
  vendor("/reports/payments-received", "Payments Received", { group: "Reports", about: "Find payments received." }),
  vendor("/reports/payments-received/results", "Payments Received Results", { about: "The payments found." }),
  vendor("/reports/vip-submissions", "VIP Submissions Report", {
    group: "Reports",
    about: "Invoices submitted through VIP.",
  }),
  vendor("/vip/invites", "VIP Invites", {
    group: "VIP",
    about: "Invitations to clients' VIP programmes, and their terms.",
  }),
  vendor("/client-terms", "Client Terms", { about: "Invitations to clients' VIP programmes, and their terms." }),
  vendor("/users/admin", "User Administration", {
    gate: "isAdmin",
    group: "Users",
    about: "Manage this vendor's users.",
  }),
  vendor("/users/change-password", "Change Password", { screen: "change-password", group: "Users" }),
  vendor("/users/switch-account", "Switch Account", {
    group: "Users",
    about: "Switch to another account of this user.",
  }),
  vendor("/docs/vip-tutorial", "VIP Tutorial", { group: "Documents", about: "A tutorial of the VIP programme." }),
  vendor("/docs/vip-user-manual", "VIP User Manual", {
    group: "Documents",
    about: "The VIP user manual, vendor edition.",
  }),
  vendor("/docs/bank-holidays", "Bank Holidays", { pdf: "BankHolidays.pdf", group: "Documents" }),
  vendor("/docs/vendor-letter", "Vendor Letter", { pdf: "VendorLetter.pdf", group: "Documents" }),
  vendor("/contact-us", "Contact Us", { group: "Help", about: "How to reach the payments provider." }),
  vendor("/forbidden", "Forbidden", { screen: "forbidden" }),

  // 2.10 Patent-fee section
  uspto("", "Patent Fees", { screen: "home" }),
  uspto("/home", "Patent Fees", { screen: "home", group: "Patent fees" }),
  uspto("/matters", "Matters", { group: "Patent fees", about: "Legal matters and their fees." }),
  uspto("/docket", "Docket", { group: "Patent fees", about: "Fee deadlines on the docket." }),
  uspto("/client-codes", "Client Codes", { group: "Patent fees", about: "Client codes of matters." }),
  uspto("/codes/:type", "Codes", { about: "Codes of one type." }),
  uspto("/daily-history", "Daily History", { group: "Patent fees", about: "Each day's fee payments." }),
  uspto("/import", "Import", { group: "Patent fees", about: "Import matters or fees." }),
  uspto("/export/:type", "Export", { about: "Export of one type." }),
  uspto("/reports/:type", "Reports", { about: "A report of one type." }),
  uspto("/missing-users", "Missing Users", { group: "Patent fees", about: "Matters without a user." }),
  uspto("/parked", "Parked", { group: "Patent fees", about: "Payments parked for later." }),
  uspto("/reconcile", "Reconcile", { group: "Patent fees", about: "Reconcile fees paid with the patent office." }),
  uspto("/refunds", "Refunds", { group: "Patent fees", about: "Fee refunds." }),
  uspto("/summary-vs-detail", "Summary vs Detail", {
    group: "Patent fees",
    about: "Summary totals against their details.",
  }),
  uspto("/transaction/:transactionId", "Transaction", { about: "One fee transaction." }),
  uspto("/valid-maint", "Valid Maintenance", {
    group: "Patent fees",
    about: "Maintenance fees that are valid to pay.",
  }),
  uspto("/demo", "Demo", { group: "Patent fees", about: "A demonstration of the patent-fee section." }),
  uspto("/admin/change-password", "Change Password", { screen: "change-password", group: "Users" }),
  uspto("/forbidden", "Forbidden", { screen: "forbidden" }),

  // 2.11 Immigration-fee section
  uscis("", "Immigration Fees", { screen: "home" }),
  uscis("/home", "Immigration Fees", { screen: "home", group: "Immigration fees" }),
  uscis("/form-history", "Immigration Fees", { screen: "home" }),
  uscis("/downloads", "Immigration Fees", { screen: "home" }),
  uscis("/templates", "Immigration Fees", { screen: "home" }),
  uscis("/g1450-form", "G-1450 Form", { group: "Immigration fees", about: "The G-1450 card-authorisation form." }),
  uscis("/g1450-review", "G-1450 Review", { group: "Immigration fees", about: "Review G-1450 forms before sending." }),
  uscis("/daily-history", "Daily History", { group: "Immigration fees", about: "Each day's fee payments." }),
  uscis("/reconcile", "Reconcile", { group: "Immigration fees", about: "Reconcile fees paid." }),
  uscis("/import", "Import", { group: "Immigration fees", about: "Import forms or fees." }),
  uscis("/unprocessed", "Unprocessed", { group: "Immigration fees", about: "Forms not yet processed." }),
  uscis("/demo", "Demo", { group: "Immigration fees", about: "A demonstration of the immigration-fee section." }),
  uscis("/admin/change-password", "Change Password", { screen: "change-password", group: "Users" }),
  uscis("/forbidden", "Forbidden", { screen: "forbidden" }),
];

/** Which signed-in audience may open each section. Patent and immigration fees are paid by client companies. */
export const sectionAudience: Record<Exclude<Section, "public">, Site> = {
  client: "client",
  vendor: "vendor",
  uspto: "client",
  uscis: "client",
};

export const signedInSections = Object.keys(sectionAudience) as Exclude<Section, "public">[];

const compiled = routes.map((entry) => ({ entry, ...parse(entry.path) }));

export type RouteMatch = { entry: RouteEntry; params: Record<string, string> };

/** Matches a pathname the way wouter does (regexparam), on the server and in the browser alike. */
export function matchRoute(pathname: string): RouteMatch | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  for (const { entry, pattern, keys } of compiled) {
    const found = pattern.exec(path);
    if (!found) continue;
    const values = keys.map((_, i) => safeDecode(found[i + 1] ?? ""));
    if (values.includes(undefined)) return undefined;
    return { entry, params: Object.fromEntries(keys.map((key, i) => [key, values[i] as string])) };
  }
  return undefined;
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The section a pathname falls in, even when no row matches it (for the not-found page). */
export function sectionOf(pathname: string): Exclude<Section, "public"> | undefined {
  const first = pathname.split("/")[1];
  return signedInSections.find((section) => section === first);
}

/** The path of a row, by section and screen title; links are built from the table, not typed as strings. */
export function pathOf(section: Section, title: string): string {
  const found = routes.find((entry) => entry.section === section && entry.title === title);
  if (!found) throw new Error(`no route ${section} ${title}`);
  return found.path;
}
