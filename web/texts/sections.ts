// Texts of the section layouts: the navigation's labels, the home greeting, the document pages.
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
  welcome: (name: string) => (name ? `Welcome, ${name}.` : "Welcome."),
  download: (fileName: string) => `Download ${fileName}`,
  documentFrame: (title: string) => `${title} (PDF)`,
} as const;
