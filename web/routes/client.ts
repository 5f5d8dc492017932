// requirements 2.8: the client section, every row with its section 6 gate ("—" there: no gate here).
import { type RouteEntry, rowsOf, securityEntry } from "#web/routes/row.ts";

const { row, same } = rowsOf("client");

const home = row("/home", "Home", {
  screen: "home",
  loader: "last-sign-in",
  group: "Home",
});

export const clientRoutes: readonly RouteEntry[] = [
  same("", home),
  home,
  row("/activity", "Activity", { group: "Home", about: "Recent activity on this account." }),
  row("/inbox", "Inbox", { group: "Home", about: "Messages from the payments provider." }),

  row("/invoice/entry", "Invoice Entry", {
    gate: "notViewOnly",
    group: "Invoices",
    about: "Enter invoices to pay (normal mode, not spot).",
  }),
  row("/invoices/import", "Invoice Import", {
    gate: "notViewOnly",
    group: "Invoices",
    about: "Import invoices from a file.",
  }),
  row("/invoices/payment", "Pay Invoices", {
    gate: "notViewOnly",
    group: "Invoices",
    about: "The invoice report in payment mode: choose invoices to pay.",
  }),
  row("/invoices/cart", "Invoice Cart", {
    gate: "paymentTierNotViewOnly",
    group: "Invoices",
    about: "Invoices chosen for payment.",
  }),
  row("/invoices/pending", "Pending Invoices", {
    gate: "lacksService1894",
    group: "Invoices",
    about: "Invoices waiting to be paid (not spot mode).",
  }),
  row("/invoices/submitted", "Submitted Invoices", { group: "Invoices", about: "Invoices submitted for payment." }),
  row("/invoices/status", "Invoice Status", { group: "Invoices", about: "Where each invoice stands." }),
  row("/invoices/unpaid", "Unpaid Invoices", { group: "Invoices", about: "Invoices not yet paid." }),
  row("/invoices/held", "Held Invoices", { group: "Invoices", about: "Invoices on hold." }),
  row("/invoices/expiring", "Expiring Invoices", { group: "Invoices", about: "Invoices about to expire." }),

  row("/batch/upload", "Batch Upload", { gate: "notViewOnly", group: "Batches", about: "Upload a batch of payments." }),
  row("/batch/upload/thank-you", "Batch Uploaded", { about: "Confirmation that a batch was uploaded." }),
  row("/batch/review", "Batch Review", { gate: "notViewOnly", group: "Batches", about: "Review uploaded batches." }),
  row("/batch/inquiry", "Batch Inquiry", { gate: "notViewOnly", group: "Batches", about: "Look up a batch." }),
  row("/batch/approval", "Batch Approval", {
    gate: "notViewOnly",
    group: "Batches",
    about: "Approve batches for payment.",
  }),
  row("/file/upload", "File Upload", {
    gate: "hasService60542",
    group: "Batches",
    about: "Upload a file to the payments provider.",
  }),

  row("/spot/payment", "Spot Payment", {
    gate: "notViewOnly",
    group: "Spot & Wires",
    about: "Invoice entry in spot mode: pay at today's rate.",
  }),
  row("/spot/pending", "Spot Pending", { group: "Spot & Wires", about: "Spot payments waiting to be sent." }),
  row("/spot/rates", "Spot Rates", { group: "Spot & Wires", about: "Today's spot exchange rates." }),
  row("/wires/pending", "Pending Wires", {
    gate: "spotTier",
    group: "Spot & Wires",
    about: "The pending screen in spot mode: wires waiting to be sent.",
  }),
  row("/wire-instructions", "Wire Instructions", { group: "Spot & Wires", about: "Where to send funds by wire." }),
  row("/named-accounts", "Named Accounts", { group: "Spot & Wires", about: "Accounts held in this company's name." }),

  row("/reports/aging", "Aging Report", { group: "Reports", about: "Open invoices by age." }),
  row("/reports/coming-due", "Coming Due", {
    group: "Reports",
    about: "The expiring screen with parameter coming-due: invoices coming due.",
  }),
  row("/reports/country", "Country Report", { group: "Reports", about: "Payments by country." }),
  row("/reports/expiring", "Expiring Report", { group: "Reports", about: "Invoices about to expire." }),
  row("/reports/invoice", "Invoice Report", { group: "Reports", about: "Invoices by status and date." }),
  row("/reports/invoice/view", "Invoice Report View", { about: "One invoice of the invoice report." }),
  row("/reports/payroll", "Payroll Report", { group: "Reports", about: "Payroll payments." }),
  row("/reports/purchase-orders", "Purchase-Order Report", {
    gate: "hasService87286",
    group: "Reports",
    about: "Purchase orders and their invoices.",
  }),
  row("/reports/purchase-orders/view", "Purchase-Order View", {
    gate: "hasService87286",
    about: "One purchase order.",
  }),
  row("/reports/transaction", "Transaction Report", { group: "Reports", about: "Payments sent." }),
  row("/reports/weekly", "Weekly Report", { group: "Reports", about: "This week's payments." }),
  row("/submission/report", "Submission Report", {
    gate: "hasService60542",
    group: "Reports",
    about: "Submissions received (the tax-bridge landing).",
  }),

  row("/vendors/history", "Vendor History", { group: "Vendors", about: "Payments to each vendor." }),
  row("/vendors/terms", "Vendor Terms", { group: "Vendors", about: "Payment terms agreed with vendors." }),
  row("/vendors/w8-forms", "Vendor W-8 Forms", { group: "Vendors", about: "Vendors' W-8 tax forms." }),
  row("/invite/homeowner", "Invite a Homeowner", {
    gate: "hasService60542",
    group: "Vendors",
    about: "Invite a homeowner to be paid through the portal.",
  }),

  row("/vip/dashboard", "VIP Dashboard", {
    gate: "vipTier",
    group: "VIP",
    about: "The VIP vendor-invoicing programme at a glance.",
  }),
  row("/vip/invite", "VIP Invite", { gate: "vipTier", group: "VIP", about: "Invite vendors to the VIP programme." }),
  row("/vip/submissions", "VIP Submissions", {
    gate: "vipTier",
    group: "VIP",
    about: "Invoices vendors submitted through VIP.",
  }),
  row("/vip/submission-history", "VIP Submission History", {
    gate: "vipTier",
    group: "VIP",
    about: "Earlier VIP submissions.",
  }),
  row("/vip/invoice-tracker", "VIP Invoice Tracker", {
    gate: "vipTierAndService88689",
    group: "VIP",
    about: "Track VIP invoices.",
  }),
  row("/vip/exceptions", "VIP Exceptions", {
    gate: "vipTier",
    group: "VIP",
    about: "VIP submissions that need attention.",
  }),
  row("/vip/audit-report", "VIP Audit Report", {
    gate: "vipTier",
    group: "VIP",
    about: "Audit trail of the VIP programme.",
  }),
  row("/vip/email-history", "VIP E-mail History", {
    gate: "vipTier",
    group: "VIP",
    about: "E-mails sent to VIP vendors.",
  }),
  row("/vip/send-email", "VIP Send E-mail", { gate: "vipTier", group: "VIP", about: "E-mail VIP vendors." }),
  row("/vip/templates", "VIP Templates", {
    gate: "vipTier",
    group: "VIP",
    about: "E-mail templates of the VIP programme.",
  }),
  row("/vip/profile", "VIP Profile", { gate: "vipTier", group: "VIP", about: "This company's VIP profile." }),
  row("/vip/ftp-settings", "VIP File-Transfer Settings", {
    gate: "vipTier",
    group: "VIP",
    about: "File-transfer settings of the VIP programme.",
  }),
  row("/vip/user-manual", "VIP User Manual", {
    gate: "vipTier",
    group: "VIP",
    about: "The VIP user manual, client edition.",
  }),

  row("/users/admin", "User Administration", {
    gate: "isAdmin",
    group: "Users",
    about: "Manage this company's users.",
  }),
  row("/users/admin/edit", "Edit User", { gate: "isAdmin", about: "Edit one user." }),
  row("/users/change-password", "Change Password", { screen: "change-password", loader: "account", ...securityEntry }),

  row("/docs/bank-holidays", "Bank Holidays", { pdf: "BankHolidays.pdf", group: "Documents" }),
  row("/docs/expired-policy", "Expiring Invoices Policy", { pdf: "ExpiringInvoicesPolicy.pdf", group: "Documents" }),
  row("/docs/vendor-letter", "Vendor Letter", { pdf: "VendorLetter.pdf", group: "Documents" }),

  row("/support", "Support", {
    screen: "support",
    group: "Help",
    about: "How to reach the payments provider's support team.",
  }),
  row("/forbidden", "Forbidden", { screen: "forbidden" }),
];
