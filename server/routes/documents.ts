// The PDFs of the section pages, forwarded by @fastify/http-proxy from the upstream to the signed-in users whose
// section's pages frame them only, never cached by the browser and never framed by another site.
import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { UpstreamAnswer } from "#server/api/forwarded-answer.ts";
import type { AppContext } from "#server/context.ts";
import { signedIn } from "#server/session/standing.ts";
import { serverTexts } from "#server/texts.ts";
import {
  faultOfError,
  faultStatus,
  MAX_PDF_ANSWER_BYTES,
  proxyFault,
  readCapped,
} from "#server/upstream/read-capped.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";
import type { Site } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** Who may read each PDF: the audiences of the section pages that frame it, as the route table says. */
const readers = new Map<string, Set<Site>>();
for (const entry of routes) {
  if (!entry.pdf || entry.section === "public") continue;
  const sites = readers.get(entry.pdf) ?? new Set<Site>();
  sites.add(sectionAudience[entry.section]);
  readers.set(entry.pdf, sites);
}

declare module "fastify" {
  interface FastifyRequest {
    pdfDeadline: AbortSignal | undefined;
  }
}

export async function documentRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.decorateRequest("pdfDeadline", undefined);
  await app.register(pdfProxy, { context });
}

/** The proxy, in a scope of its own: its routes are loaded by a page's frame, the browser's doing, not a person's. */
async function pdfProxy(app: FastifyInstance, { context }: { context: AppContext }): Promise<void> {
  app.addHook("onRoute", (route) => {
    route.config = { ...(route.config ?? {}), activity: false };
  });
  await app.register(httpProxy, {
    upstream: context.upstreamUrl,
    prefix: "/pdfs",
    rewritePrefix: `${new URL(context.upstreamUrl).pathname.replace(/\/+$/, "")}/pdfs`,
    routes: ["/:fileName"],
    httpMethods: ["GET"],
    disableRequestLogging: true,
    retryMethods: [],
    undici: { headersTimeout: context.config.upstreamTimeoutMs, bodyTimeout: context.config.upstreamTimeoutMs },
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = signedIn(request);
      // Signed in fully: while the password is expired, only the change-password form is reachable.
      if (!auth) return reply.code(401).send({ detail: serverTexts.signInToRead.message });
      const sites = readers.get((request.params as { fileName: string }).fileName);
      if (!sites) return reply.code(404).send({ detail: serverTexts.noSuchDocument.message });
      // A document no page of this user's section links is not theirs (a vendor never reads the clients' policy).
      if (!sites.has(auth.site)) return reply.code(403).send({ detail: errorTexts.accessDenied });
      request.pdfDeadline = AbortSignal.timeout(context.config.upstreamTimeoutMs);
    },
    replyOptions: {
      queryString: () => "",
      rewriteRequestHeaders: (_request, headers) => ({ host: String(headers.host), accept: "application/pdf" }),
      rewriteHeaders: () => ({}),
      onResponse: (request, reply, answer) => {
        void sendPdf(request as FastifyRequest, reply as FastifyReply, answer as unknown as UpstreamAnswer);
      },
      onError: (reply, { error }) => {
        const fault = proxyFault(error);
        reply.request.log.warn({ operation: "pdf", fault }, "upstream fault");
        reply.code(faultStatus(fault)).send({});
      },
    },
  });
}

async function sendPdf(request: FastifyRequest, reply: FastifyReply, answer: UpstreamAnswer) {
  const type = String(answer.headers["content-type"] ?? "");
  const stream = answer.stream as NodeJS.ReadableStream & AsyncIterable<Uint8Array> & { destroy(): void };
  if (answer.statusCode !== 200 || !type.startsWith("application/pdf")) {
    stream.destroy();
    return reply.code(502).send({});
  }
  try {
    const signal = request.pdfDeadline ?? AbortSignal.timeout(10_000);
    const length = answer.headers["content-length"] as string | undefined;
    const pdf = await readCapped(stream, MAX_PDF_ANSWER_BYTES, signal, length);
    const fileName = (request.params as { fileName: string }).fileName;
    return reply
      .code(200)
      .type("application/pdf")
      .header("x-frame-options", "SAMEORIGIN")
      .header("content-security-policy", "frame-ancestors 'self'")
      .header("content-disposition", `inline; filename="${fileName}"`)
      .send(pdf);
  } catch (error) {
    stream.destroy();
    return reply.code(faultStatus(faultOfError(error))).send({});
  }
}
