// Texts of the page frame: header, footer, sign out.
export const layoutTexts = {
  brand: "Payments Portal",
  copyright: (year: number) => `© ${year} Payments Portal. All rights reserved.`,
  signOut: "Sign out",
  signedInAs: (user: string) => `Signed in as ${user}`,
  skipToContent: "Skip to content",
} as const;
