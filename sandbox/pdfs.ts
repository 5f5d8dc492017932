// The three PDF documents of docs/requirements.md as small, valid PDF 1.4 files of sandbox sample text.
import type { components } from "#openapi/schema.ts";

export type PdfFileName = components["schemas"]["PdfFileName"];

interface PdfDocument {
  title: string;
  lines: readonly string[];
}

const SAMPLE_NOTICE = "Sandbox sample content: an illustration, not a real document of the provider.";

const DOCUMENTS: Record<PdfFileName, PdfDocument> = {
  "BankHolidays.pdf": {
    title: "Bank Holidays 2026",
    lines: [
      SAMPLE_NOTICE,
      "Confirm the dates with your bank before you plan a payment.",
      "",
      "Payments are not settled on these United States bank holidays in 2026:",
      "",
      "Thursday, January 1 - New Year's Day",
      "Monday, January 19 - Birthday of Martin Luther King, Jr.",
      "Monday, February 16 - Washington's Birthday",
      "Monday, May 25 - Memorial Day",
      "Friday, June 19 - Juneteenth National Independence Day",
      "Saturday, July 4 - Independence Day",
      "Monday, September 7 - Labor Day",
      "Monday, October 12 - Columbus Day",
      "Wednesday, November 11 - Veterans Day",
      "Thursday, November 26 - Thanksgiving Day",
      "Friday, December 25 - Christmas Day",
      "",
      "A payment due on a bank holiday is processed on the next business day.",
    ],
  },
  "ExpiringInvoicesPolicy.pdf": {
    title: "Expiring Invoices Policy",
    lines: [
      SAMPLE_NOTICE,
      "",
      "1. An invoice expires when it has not been paid within 90 days of its due date.",
      "2. Invoices that expire within the next 30 days are listed under Reports > Expiring;",
      "   invoices about to fall due are listed under Reports > Coming Due.",
      "3. An expired invoice is held. It must be approved again before it can be paid.",
      "4. To extend an invoice before it expires, contact support with its invoice number.",
      "5. Vendors are told by e-mail 10 days before an invoice of theirs expires.",
    ],
  },
  "VendorLetter.pdf": {
    title: "A Letter to Our Vendors",
    lines: [
      SAMPLE_NOTICE,
      "",
      "Dear Vendor,",
      "",
      "Your customer pays your invoices through our payments portal. To be paid sooner,",
      "sign in to the vendor section, keep your banking details up to date and submit",
      "your invoices online. You can follow the status of each invoice and see the",
      "payments you have received under Reports.",
      "",
      "If you have questions, the Contact Us page of the vendor section tells you how",
      "to reach our support team.",
      "",
      "Sincerely,",
      "The Payments Team",
    ],
  },
};

/** A PDF literal string: printable ASCII only, with the three characters PDF reserves escaped. */
function pdfString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`PDF text must be printable ASCII: ${text}`);
  return `(${text.replace(/[\\()]/g, (character) => `\\${character}`)})`;
}

function contentStream(document: PdfDocument): string {
  const operations = [
    "BT",
    "/F2 18 Tf",
    "72 720 Td",
    `${pdfString(document.title)} Tj`,
    "/F1 11 Tf",
    "16 TL",
    "0 -32 Td",
  ];
  document.lines.forEach((line, index) => {
    if (index > 0) operations.push("T*");
    if (line !== "") operations.push(`${pdfString(line)} Tj`);
  });
  operations.push("ET");
  return `${operations.join("\n")}\n`;
}

/** Lays the objects out and writes the cross-reference table with each object's byte offset. */
export function buildPdf(document: PdfDocument): Buffer {
  const content = contentStream(document);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}endstream`,
    `<< /Title ${pdfString(document.title)} /Producer (Payments portal sandbox) >>`,
  ];
  // The second line's bytes above 127 mark the file as binary for transfer tools (PDF 1.4, 3.4.1).
  let output = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(output, "latin1"));
    output += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(output, "latin1");
  // Each entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, space, LF.
  const entries = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`);
  output += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries.join("")}`;
  output += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\n`;
  output += `startxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(output, "latin1");
}

let built: ReadonlyMap<string, Buffer> | undefined;

/** The PDF named `fileName`, built on first use and kept; undefined for any other name. */
export function findPdf(fileName: string): Buffer | undefined {
  built ??= new Map(Object.entries(DOCUMENTS).map(([name, document]) => [name, buildPdf(document)]));
  return built.get(fileName);
}
