// The thinnest page of the same parts: Fastify with the portal's logging, @fastify/secure-session opening the portal's
// cookie, @fastify/helmet with the portal's headers and the page's policy with a nonce per answer, and the gated
// page's HTML, fetched from the portal once at start. No gates beyond a session with a sign-in, no render, idle
// times or visits: set beside the portal's page, it shows what the portal adds to a page.
import helmet from "@fastify/helmet";
import Fastify from "fastify";
import { openPortalCookie } from "#scripts/bench/portal-cookie.ts";
import { loggerOptions, OneLinePerRequest } from "#server/plugins/logging.ts";
import { nonceOf, nonceSource, securityHeaders } from "#server/plugins/security-headers.ts";

const pageUrl = String(process.env.PAGE_URL);
const page = await fetch(pageUrl, { headers: { cookie: String(process.env.PAGE_COOKIE) }, redirect: "manual" });
if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}: the bare page needs a signed-in cookie`);
const policy = page.headers.get("content-security-policy") ?? "";
const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
if (!nonce) throw new Error(`${pageUrl} has no CSP nonce`);

// The HTML cut at its nonce, each answer's own nonce written in: the portal's kept renders are cut at their slots too.
const pieces = (await page.text()).split(nonce);
// The page's own policy as helmet's directives, read from its answer rather than copied, the nonce a function of each
// answer (helmet's documented way, as the portal does): the same header, built per answer by the same library.
const directives = Object.fromEntries(
  policy
    .split(";")
    .map((directive) => directive.trim().split(/\s+/))
    .filter(([name]) => name)
    .map(([name, ...values]) => [name, values.map((value) => (value === `'nonce-${nonce}'` ? nonceSource : value))]),
);

const app = Fastify({ logger: loggerOptions("info"), logController: new OneLinePerRequest() });
await app.register(helmet, { ...securityHeaders, contentSecurityPolicy: { useDefaults: false, directives } });
await openPortalCookie(app);
app.get(new URL(pageUrl).pathname, (request, reply) => {
  // A cookie that did not open (or names no session) is sent away, as the portal would: the bench counts that a failure.
  if (request.session.get("sid") === undefined) return reply.redirect("/", 302);
  return reply
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(pieces.join(nonceOf(reply.raw)));
});
app.get("/healthz", async () => ({ ok: true }));
await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
