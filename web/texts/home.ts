// Texts of a section's home page: the greeting, what the person may do in the section and what each of its areas
// holds, said only of the pages this person's gates open (a view-only client is never told to upload batches or pay
// invoices, a vendor of tier 0 never to submit them). Each phrase names the pages it speaks of; the home page asks the
// route table and the gates which of them open (web/components/home-screen.tsx).
import type { NavGroup, SignedInSection } from "#web/routes/row.ts";

/** Words about some pages of a section (paths under it, all behind the same gate), and those pages. */
export type Phrase = readonly [words: string, pages: readonly string[]];

/** Whether the person may open the page at this path (its section's prefix included). */
export type Opens = (path: string) => boolean;

/** What the person may do in each section, as the home page's line under the greeting: phrases of one sentence. */
const doings: Record<SignedInSection, readonly Phrase[]> = {
  client: [
    ["upload batches", ["/batch/upload"]],
    ["enter and import invoices", ["/invoice/entry", "/invoices/import"]],
    ["choose invoices to pay", ["/invoices/payment"]],
    ["follow your invoices", ["/invoices/status", "/invoices/submitted", "/invoices/unpaid"]],
    ["run reports", ["/reports/invoice", "/reports/transaction", "/reports/weekly"]],
    ["look up your vendors' history, terms and W-8 forms", ["/vendors/history", "/vendors/terms", "/vendors/w8-forms"]],
  ],
  vendor: [
    ["submit invoices to clients", ["/invoice/entry"]],
    ["follow your invoices' status", ["/reports/invoice-status", "/reports/invoices"]],
    ["see payments received", ["/reports/payments-received"]],
  ],
  uspto: [["follow legal matters and their dockets", ["/matters", "/docket"]]],
  uscis: [["fill in the G-1450 card-authorisation form", ["/g1450-form"]]],
};

/** The security part of every section, on its change-password page. */
const security = (page: string): readonly Phrase[] => [
  ["where you're signed in, the browsers that skip the code, your recent activity and your password", [page]],
];

/** What each area of a section holds, as its card's line: phrases of one list, each part of it behind one gate. */
const holdings: Record<SignedInSection, Partial<Record<NavGroup, readonly Phrase[]>>> = {
  client: {
    Invoices: [
      ["invoice entry and import", ["/invoice/entry", "/invoices/import"]],
      ["payment", ["/invoices/payment"]],
      ["the cart", ["/invoices/cart"]],
      ["pending invoices", ["/invoices/pending"]],
      [
        "submitted, unpaid, held and expiring invoices and their status",
        ["/invoices/submitted", "/invoices/unpaid", "/invoices/held", "/invoices/expiring", "/invoices/status"],
      ],
    ],
    Batches: [
      ["batches from upload to approval", ["/batch/upload", "/batch/review", "/batch/inquiry", "/batch/approval"]],
      ["file upload", ["/file/upload"]],
    ],
    "Spot & Wires": [
      ["spot payment", ["/spot/payment"]],
      ["spot pending and spot rates", ["/spot/pending", "/spot/rates"]],
      ["pending wires", ["/wires/pending"]],
      ["wire instructions and named accounts", ["/wire-instructions", "/named-accounts"]],
    ],
    Reports: [
      [
        "aging, coming-due, country, expiring, invoice, payroll, transaction and weekly reports",
        [
          "/reports/aging",
          "/reports/coming-due",
          "/reports/country",
          "/reports/expiring",
          "/reports/invoice",
          "/reports/payroll",
          "/reports/transaction",
          "/reports/weekly",
        ],
      ],
      ["purchase orders", ["/reports/purchase-orders"]],
      ["submission reports", ["/submission/report"]],
    ],
    Vendors: [
      ["vendor history, vendor terms and W-8 forms", ["/vendors/history", "/vendors/terms", "/vendors/w8-forms"]],
      ["homeowner invitations", ["/invite/homeowner"]],
    ],
    VIP: [
      [
        "the VIP vendor-invoicing programme: dashboard, invites, submissions, exceptions, e-mails and settings",
        [
          "/vip/dashboard",
          "/vip/invite",
          "/vip/submissions",
          "/vip/submission-history",
          "/vip/exceptions",
          "/vip/audit-report",
          "/vip/email-history",
          "/vip/send-email",
          "/vip/templates",
          "/vip/profile",
          "/vip/ftp-settings",
          "/vip/user-manual",
        ],
      ],
      ["the VIP invoice tracker", ["/vip/invoice-tracker"]],
    ],
    Users: [["user administration", ["/users/admin"]]],
    Security: security("/users/change-password"),
    Documents: [
      [
        "bank holidays, the expiring-invoices policy and the vendor letter",
        ["/docs/bank-holidays", "/docs/expired-policy", "/docs/vendor-letter"],
      ],
    ],
    Help: [["support", ["/support"]]],
  },
  vendor: {
    Invoices: [
      ["invoice entry", ["/invoice/entry"]],
      ["pending, managed and rejected invoices", ["/invoice/pending", "/invoice/management", "/invoice/rejected"]],
      ["invoices due", ["/invoice/due"]],
    ],
    Reports: [
      [
        "invoices, invoice status, payments received and VIP submissions reports",
        ["/reports/invoices", "/reports/invoice-status", "/reports/payments-received", "/reports/vip-submissions"],
      ],
    ],
    VIP: [["VIP invites and client terms", ["/vip/invites"]]],
    Users: [
      ["user administration", ["/users/admin"]],
      ["switching account", ["/users/switch-account"]],
    ],
    Security: security("/users/change-password"),
    Documents: [
      [
        "the VIP tutorial and user manual, bank holidays and the vendor letter",
        ["/docs/vip-tutorial", "/docs/vip-user-manual", "/docs/bank-holidays", "/docs/vendor-letter"],
      ],
    ],
    Help: [["contact us", ["/contact-us"]]],
  },
  uspto: {
    "Patent fees": [["legal matters and dockets", ["/matters", "/docket"]]],
    Security: security("/admin/change-password"),
  },
  uscis: {
    "Immigration fees": [["the G-1450 card-authorisation form", ["/g1450-form"]]],
    Security: security("/admin/change-password"),
  },
};

/** The words of the phrases whose pages the person may open. */
const open = (section: SignedInSection, phrases: readonly Phrase[], opens: Opens): string[] =>
  phrases.filter(([, pages]) => pages.some((page) => opens(`/${section}${page}`))).map(([words]) => words);

/** Words as a sentence: its first letter a capital, a full stop after it; nothing when there are no words. */
const sentence = (words: string): string => (words ? `${words[0]?.toUpperCase()}${words.slice(1)}.` : "");

/** "a, b and c". */
const listed = (words: readonly string[]): string =>
  words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

export const homeTexts = {
  /** The greeting: the user and, for a client, the company. */
  welcome: (name: string, company?: string) => {
    const who = name && company ? `${name} of ${company}` : name || company;
    return who ? `Welcome, ${who}.` : "Welcome.";
  },
  /** "Follow your invoices, run reports and …": what this person may do in the section; empty when nothing opens. */
  doings: (section: SignedInSection, opens: Opens): string => sentence(listed(open(section, doings[section], opens))),
  /** An area's card line, its parts set apart by semicolons; undefined for an area without one or with nothing open. */
  holdings: (section: SignedInSection, area: NavGroup, opens: Opens): string | undefined => {
    const phrases = holdings[section][area];
    return phrases ? sentence(open(section, phrases, opens).join("; ")) || undefined : undefined;
  },
  /** Every phrase with its pages, for the test that each names pages of the table, behind one gate. */
  phrases: { doings, holdings },
  shortcuts: "Shortcuts",
  /** On a phone, before the areas, whose page links it leaves to the menu: where every page is. */
  menuHint: (menu: string) => `Every page of this section is in the ${menu} at the top of the page.`,
  areasHeading: "What you can do here",
  otherSectionsHeading: "Other sections",
};
