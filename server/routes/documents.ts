// The PDFs of the section pages, forwarded by @fastify/http-proxy from the upstream to the signed-in users whose
// section's pages frame them only, never cached by the browser and never framed by another site.
import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorShape } from "#server/actions/error-shape.ts";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { endedBy, signedIn } from "#server/session/fields.ts";
import { refusesToken, tokenRefused } from "#server/session/lifecycle.ts";
import { endNotice } from "#server/session/why-ended.ts";
import { serverTexts } from "#server/texts.ts";
import {
  ACCEPT_ENCODING,
  type AnswerStream,
  type Fault,
  faultOfError,
  faultStatus,
  letGo,
  MAX_PDF_ANSWER_BYTES,
  plainEncoding,
  proxyFault,
  readAnswer,
  readCapped,
  UpstreamFault,
} from "#server/upstream/answer-reader.ts";
import { failedCallText } from "#web/api/answer.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";
import type { Site } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

/** The upstream's answer as the proxy hands it over. */
type UpstreamAnswer = { statusCode: number; headers: Record<string, unknown>; stream: NodeJS.ReadableStream };

/** The document call, as the metrics and the fault log name it. */
const OPERATION = "getPdf";

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
    /** The document call under way: its deadline, and when it began (`performance.now()`: its metric's duration). */
    pdfCall: { deadline: AbortSignal; started: number } | undefined;
  }
}

export async function documentRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.decorateRequest("pdfCall", undefined);
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
      // Signed in fully: while the password is expired, only the change-password form is reachable. Without a
      // session, the frame (or the tab "Open the PDF" opened) says why it ended, with the way back to sign in.
      if (!auth) return frameMessage(reply, 401, signInToRead(context, request), true);
      const sites = readers.get((request.params as { fileName: string }).fileName);
      if (!sites) throw new Refusal(404, serverTexts.noSuchDocument.message);
      // A document no page of this user's section links is not theirs (a vendor never reads the clients' policy).
      if (!sites.has(auth.site)) throw new Refusal(403, errorTexts.accessDenied);
      request.pdfCall = {
        deadline: AbortSignal.timeout(context.config.upstreamTimeoutMs),
        started: performance.now(),
      };
    },
    replyOptions: {
      queryString: () => "",
      rewriteRequestHeaders: (_request, headers) => ({
        host: String(headers.host),
        accept: "application/pdf",
        "accept-encoding": ACCEPT_ENCODING,
      }),
      rewriteHeaders: () => ({}),
      onResponse: (request, reply, answer) => {
        void sendPdf(context, request as FastifyRequest, reply as FastifyReply, answer as unknown as UpstreamAnswer);
      },
      onError: (reply, { error }) => {
        pdfFault(context, reply.request as FastifyRequest, reply as FastifyReply, proxyFault(error));
      },
    },
  });
}

/** requirements 7.2's `/pdfs/{fileName}`: a PDF by its media type, whatever its case and parameters. */
const isPdf = (type: unknown): boolean =>
  String(type ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase() === "application/pdf";

/**
 * The upstream's answer to a document's call, into the page's frame: the PDF, or requirements 8's message in a page of
 * its own, never a blank or raw frame. A 401 ends the session (requirements 4.5); what of a failed answer is read is
 * server/upstream/answer-reader.ts's, and a fault is logged and counted as every upstream fault is.
 */
async function sendPdf(context: AppContext, request: FastifyRequest, reply: FastifyReply, answer: UpstreamAnswer) {
  const status = answer.statusCode;
  const stream = answer.stream as unknown as AnswerStream;
  const signal = request.pdfCall?.deadline ?? AbortSignal.timeout(context.config.upstreamTimeoutMs);
  try {
    if (status >= 200 && status < 300) {
      if (!isPdf(answer.headers["content-type"])) throw new UpstreamFault("wrong-shape");
      if (!plainEncoding(answer.headers["content-encoding"])) throw new UpstreamFault("not-json");
      const length = answer.headers["content-length"] as string | undefined;
      const pdf = await readCapped(stream, MAX_PDF_ANSWER_BYTES, signal, length);
      counted(context, request, status);
      context.forwardFaults.succeeded(OPERATION);
      const fileName = (request.params as { fileName: string }).fileName;
      return framed(reply.code(200))
        .type("application/pdf")
        .header("content-disposition", `inline; filename="${fileName}"`)
        .send(pdf);
    }
    const body = await readAnswer({ status, headers: answer.headers }, stream, "body", signal);
    counted(context, request, status);
    if (refusesToken(status)) {
      tokenRefused(request, OPERATION);
      return frameMessage(reply, 401, errorTexts.sessionExpired, true);
    }
    return frameMessage(reply, status, failedCallText(status, errorShape(status, body)));
  } catch (error) {
    return pdfFault(context, request, reply, faultOfError(error));
  } finally {
    letGo(stream);
  }
}

/** The document call's time, from its preHandler, counted with its outcome. */
const counted = (context: AppContext, request: FastifyRequest, outcome: number | string) =>
  context.metrics.upstreamCall(
    OPERATION,
    outcome,
    (performance.now() - (request.pdfCall?.started ?? performance.now())) / 1000,
  );

/**
 * A document that could not be had: counted, logged when a run of such faults starts (as every forwarded call's, not
 * once per request), and "Action Failed" with the outage sentence in the frame.
 */
function pdfFault(context: AppContext, request: FastifyRequest, reply: FastifyReply, fault: Fault) {
  counted(context, request, fault);
  context.forwardFaults.failed(OPERATION, { fault, reqId: request.id });
  const status = faultStatus(fault);
  return frameMessage(reply, status, failedCallText(status, undefined));
}

/** Why a document needs a sign-in: the words for the way this request's session ended, or that one is needed. */
const signInToRead = (context: AppContext, request: FastifyRequest): string => {
  const ended = endedBy(request);
  return (ended && endNotice(context.config, ended)) ?? serverTexts.signInToRead.message;
};

/** The PDF: framed by this origin's pages only. */
const framed = (reply: FastifyReply) =>
  reply.header("x-frame-options", "SAMEORIGIN").header("content-security-policy", "frame-ancestors 'self'");

const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** requirements 8's message as the frame's page: no script, no style, and the way to sign in again when it ended. */
function frameMessage(reply: FastifyReply, status: number, text: string, signIn = false) {
  const link = signIn ? `<p><a href="/" target="_top">${escaped(mfaTexts.signInAgain)}</a></p>` : "";
  // The policy of every answer (server/plugins/security-headers.ts): it loads nothing and is framed by this origin only.
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escaped(text)}</title></head>` +
        `<body><p role="alert">${escaped(text)}</p>${link}</body></html>`,
    );
}
