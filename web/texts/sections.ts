// Texts of the section layouts: the navigation's labels, the home page, the document pages.
import type { SignedInSection } from "#web/routes/row.ts";

const sectionNames: Record<SignedInSection, string> = {
  client: "Client",
  vendor: "Vendor",
  uspto: "Patent fees",
  uscis: "Immigration fees",
};

export const sectionTexts = {
  menu: "Menu",
  forbiddenTitle: "Access Denied",
  notFoundTitle: "Page Not Found",
  checkingTitle: "Checking User Permissions",
  navLabel: (section: SignedInSection) => `${sectionNames[section]} pages`,
  /** The home page's greeting: the user and, for a client, the company. */
  welcome: (name: string, company?: string) => {
    const who = name && company ? `${name} of ${company}` : name || company;
    return who ? `Welcome, ${who}.` : "Welcome.";
  },
  shortcuts: "Shortcuts",
  areasHeading: "What you can do here",
  otherSectionsHeading: "Other sections",
  pagesOf: (area: string) => `${area} pages`,
  download: (fileName: string) => `Download ${fileName}`,
  documentFrame: (title: string) => `${title} (PDF)`,
} as const;
