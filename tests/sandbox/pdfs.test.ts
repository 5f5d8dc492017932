// The sandbox's three documents (sandbox/pdfs.ts): valid PDF 1.4 files, served without sign-in.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { buildPdf, findPdf } from "#sandbox/pdfs.ts";
import { type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

let sandbox: SandboxUnderTest;
describe("sandbox/pdfs", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  describe("the documents", () => {
    test("each PDF is served without sign-in as a PDF 1.4 file whose cross-reference offsets point at its objects", async () => {
      for (const name of ["BankHolidays.pdf", "ExpiringInvoicesPolicy.pdf", "VendorLetter.pdf"]) {
        const response = await fetch(`${sandbox.url}/pdfs/${name}`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), "application/pdf");
        const pdf = Buffer.from(await response.arrayBuffer()).toString("latin1");
        assert.ok(pdf.startsWith("%PDF-1.4"));
        assert.ok(pdf.trimEnd().endsWith("%%EOF"));
        assert.ok(pdf.includes("Sandbox sample content"));
        const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(pdf)?.[1]);
        assert.equal(pdf.slice(startxref, startxref + 5), "xref\n");
        const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(pdf.slice(startxref)) ?? [];
        assert.equal(first, "0");
        const table = pdf
          .slice(startxref)
          .split("\n")
          .slice(2, 2 + Number(count));
        table.slice(1).forEach((entry, index) => {
          const offset = Number(entry.slice(0, 10));
          assert.equal(
            pdf.slice(offset, offset + `${index + 1} 0 obj`.length),
            `${index + 1} 0 obj`,
            `${name} object ${index + 1}`,
          );
        });
      }
      const missing = await sandbox.call("GET", "/pdfs/Secrets.pdf");
      assert.deepEqual([missing.status, missing.body], [404, { detail: "Not Found" }]);
    });

    test("a PDF opens inline in the portal's frame, under its own name, and may be cached for an hour", async () => {
      const response = await fetch(`${sandbox.url}/pdfs/VendorLetter.pdf`);
      assert.equal(response.headers.get("content-disposition"), 'inline; filename="VendorLetter.pdf"');
      assert.equal(response.headers.get("cache-control"), "public, max-age=3600");
    });

    test("only the three documents are found, each built once", () => {
      assert.equal(findPdf("VendorLetter.pdf"), findPdf("VendorLetter.pdf"));
      for (const name of ["Secrets.pdf", "vendorletter.pdf", "__proto__", "constructor", ""]) {
        assert.equal(findPdf(name), undefined, name);
      }
    });
  });

  describe("building a PDF", () => {
    test("the stream's declared length is its byte count, and the reserved characters of a text are escaped", () => {
      const pdf = buildPdf({ title: "A (draft) \\ note", lines: ["one", "", "two"] }).toString("latin1");
      assert.ok(pdf.includes("(A \\(draft\\) \\\\ note) Tj"));
      const [, length, stream] = /<< \/Length (\d+) >>\nstream\n([\s\S]*?)endstream/.exec(pdf) ?? [];
      assert.equal(Number(length), Buffer.byteLength(stream ?? "", "latin1"));
      assert.match(stream ?? "", /\(one\) Tj\nT\*\nT\*\n\(two\) Tj/, "an empty line moves down without text");
    });

    test("a text that is not printable ASCII is refused rather than written wrongly", () => {
      assert.throws(() => buildPdf({ title: "Café", lines: [] }), /printable ASCII/);
      assert.throws(() => buildPdf({ title: "ok", lines: ["tab\there"] }), /printable ASCII/);
    });
  });
});
