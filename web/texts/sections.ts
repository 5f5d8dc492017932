// Texts of the section layouts: the navigation's labels, the document pages, the empty pages (the home page's are
// web/texts/home.ts).
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
  /** A section page's title names its section, so a client's and a vendor's pages differ ("Home · Client"). */
  pageTitle: (title: string, section: SignedInSection) =>
    title.toLowerCase() === sectionNames[section].toLowerCase() ? title : `${title} · ${sectionNames[section]}`,
  navLabel: (section: SignedInSection) => `${sectionNames[section]} pages`,
  pagesOf: (area: string) => `${area} pages`,
  download: (fileName: string) => `Download ${fileName}`,
  openPdf: "Open the PDF",
  phone: "Phone",
  phoneUk: "Phone (UK)",
  email: "E-mail",
  /** An empty page: where its content comes from, said plainly (this portal shows none of it yet). */
  fromProvider:
    "The records of this page come from the payments provider's systems. This portal does not show them yet.",
  nextHeading: "Where to go next",
  backToHome: (homeTitle?: string) => (homeTitle ? `Back to ${homeTitle}` : "Back to your home page"),
  relatedIn: (group: string) => `Other ${group} pages:`,
  supportHint: ": phones and e-mail of the support team, for anything you need from this page.",
  /** On a forbidden or not-found page, the way back for a person who has no menu there. */
  backHome: "Go to your home page",
  documentFrame: (title: string) => `${title} (PDF)`,
  /** A document page on paper, where its frame cannot print: what the document is, and where to print it from. */
  documentFile: "Document",
  documentAddress: "Its address on the portal",
  printTheDocument: "This page does not print the document itself: open the PDF and print it from there.",
} as const;
