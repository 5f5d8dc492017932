// Texts of the page frame: header, footer, sign out, the idle-timeout warning.
export const layoutTexts = {
  brand: "Payments Portal",
  copyright: (year: number) => `© ${year} Payments Portal. All rights reserved.`,
  signOut: "Sign out",
  /** Read before the header's user and company (visually hidden: the two show as a compact chip). */
  signedInAs: "Signed in as",
  /** Between the user and the company, for a screen reader ("alice at ACME"); the chip shows a divider. */
  atCompany: "at",
  /** When neither the user nor the company is known (a link sign-in on a server that does not pass them). */
  accountOf: (site: "client" | "vendor") => (site === "client" ? "Client account" : "Vendor account"),
  skipToContent: "Skip to content",
  idleWarning: "You will be signed out in one minute because of inactivity.",
  staySignedIn: "Stay signed in",
} as const;
