// requirements 2.9: the vendor section, every row with its section 6 gate.
import { type RouteEntry, rowsOf, securityEntry } from "#web/routes/row.ts";

const { row, same } = rowsOf("vendor");

const home = row("/home", "Home", {
  screen: "home",
  loader: "last-sign-in",
  group: "Home",
});
const vipInvites = row("/vip/invites", "VIP Invites", {
  group: "VIP",
  about: "Invitations to clients' VIP programmes, and their terms.",
});

export const vendorRoutes: readonly RouteEntry[] = [
  same("", home),
  home,
  row("/inbox", "Inbox", { group: "Home", about: "Messages from the payments provider." }),

  row("/invoice/entry", "Invoice Entry", {
    gate: "userTier",
    group: "Invoices",
    about: "Submit an invoice to a client.",
  }),
  row("/invoice/pending", "Pending Invoices", {
    gate: "userTier",
    group: "Invoices",
    about: "Invoices waiting for the client.",
  }),
  row("/invoice/management", "Invoice Management", {
    gate: "userTier",
    group: "Invoices",
    about: "Manage submitted invoices.",
  }),
  row("/invoice/rejected", "Rejected Invoices", {
    gate: "userTier",
    group: "Invoices",
    about: "Invoices a client rejected.",
  }),
  row("/invoice/due", "Invoices Due", {
    gate: "hasBeneService60562",
    group: "Invoices",
    about: "Invoices that are due (the tax-bridge landing).",
  }),

  row("/reports/invoices", "Invoices Report", { group: "Reports", about: "Invoices submitted to clients." }),
  row("/reports/invoice-status", "Invoice Status Report", { group: "Reports", about: "Where each invoice stands." }),
  row("/reports/payments-received", "Payments Received", { group: "Reports", about: "Find payments received." }),
  row("/reports/payments-received/results", "Payments Received Results", { about: "The payments found." }),
  row("/reports/vip-submissions", "VIP Submissions Report", {
    group: "Reports",
    about: "Invoices submitted through VIP.",
  }),

  vipInvites,
  same("/client-terms", vipInvites),

  row("/users/admin", "User Administration", {
    gate: "isAdmin",
    group: "Users",
    about: "Manage this vendor's users.",
  }),
  row("/users/change-password", "Change Password", { screen: "change-password", loader: "account", ...securityEntry }),
  row("/users/switch-account", "Switch Account", { group: "Users", about: "Switch to another account of this user." }),

  row("/docs/vip-tutorial", "VIP Tutorial", { group: "Documents", about: "A tutorial of the VIP programme." }),
  row("/docs/vip-user-manual", "VIP User Manual", {
    group: "Documents",
    about: "The VIP user manual, vendor edition.",
  }),
  row("/docs/bank-holidays", "Bank Holidays", { pdf: "BankHolidays.pdf", group: "Documents" }),
  row("/docs/vendor-letter", "Vendor Letter", { pdf: "VendorLetter.pdf", group: "Documents" }),

  row("/contact-us", "Contact Us", { screen: "support", group: "Help", about: "How to reach the payments provider." }),
  row("/forbidden", "Forbidden", { screen: "forbidden" }),
];
