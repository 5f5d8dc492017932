// Texts of the page frame: header, footer, sign out, the idle-timeout warning.
export const layoutTexts = {
  brand: "Payments Portal",
  copyright: (year: number) => `© ${year} Payments Portal. All rights reserved.`,
  signOut: "Sign out",
  signedInAs: (user: string) => `Signed in as ${user}`,
  skipToContent: "Skip to content",
  idleWarning: "You will be signed out in one minute because of inactivity.",
  staySignedIn: "Stay signed in",
} as const;
