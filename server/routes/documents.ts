// The PDFs of the section pages, served from the portal's own origin (forwarded from the upstream) to signed-in users.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "#server/context.ts";
import { signedIn } from "#server/session.ts";
import { fillPath } from "#server/upstream/operations.ts";
import type { PdfFile } from "#web/routes/row.ts";

const pdfFiles: readonly PdfFile[] = ["BankHolidays.pdf", "ExpiringInvoicesPolicy.pdf", "VendorLetter.pdf"];

export async function documentRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.get<{ Params: { fileName: string } }>("/pdfs/:fileName", async (request, reply) => {
    const auth = signedIn(request);
    // While the password is expired, only the change-password form is reachable (SPEC.md 4.2).
    if (!auth || auth.loginMessage === "Password Expired")
      return reply.code(401).send({ detail: "Sign in to read this document." });
    const fileName = request.params.fileName as PdfFile;
    if (!pdfFiles.includes(fileName)) return reply.code(404).send({ detail: "No such document." });
    const answer = await context.upstream({
      operation: "getPdf",
      method: "GET",
      path: fillPath("/pdfs/{fileName}", { fileName }),
    });
    if (answer.kind === "fault") return reply.code(502).send({});
    if (!answer.ok || !answer.contentType.startsWith("application/pdf")) return reply.code(502).send({});
    return reply
      .type("application/pdf")
      .header("cache-control", "private, max-age=3600")
      .header("content-disposition", `inline; filename="${fileName}"`)
      .send(answer.raw);
  });
}
