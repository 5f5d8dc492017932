// Builds the portal as a Fastify app; it never listens (portal.ts does), so tests build it and inject requests.
// Assets, health and metrics never touch the session; pages, /api, /session/* and /pdfs/* run inside its scope, which
// shares its refused-form page with the sandbox's relayed forms.

import { randomUUID } from "node:crypto";
import formbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Config } from "#server/config.ts";
import { type ContextOptions, createContext } from "#server/context.ts";
import { refusedForm } from "#server/loaders/public.tsx";
import type { Screens } from "#server/loaders/screen.ts";
import { allowedHostNames, refuseOtherHosts } from "#server/plugins/allowed-hosts.ts";
import { csrfPlugin } from "#server/plugins/csrf.ts";
import { clientErrors, expectationFailed, frameworkErrors, installErrorHandling } from "#server/plugins/errors.ts";
import { loggerOptions, OneLinePerRequest } from "#server/plugins/logging.ts";
import { metricsPlugin } from "#server/plugins/metrics.ts";
import { queryLimit, querystringParser } from "#server/plugins/query-limit.ts";
import { securityHeadersPlugin } from "#server/plugins/security-headers.ts";
import { installShutdown, stopTimings } from "#server/plugins/shutdown.ts";
import { limitSocketsPerAddress } from "#server/plugins/socket-limit.ts";
import { assetsDir, readManifest } from "#server/render/assets.ts";
import { decoratePage } from "#server/render/page-reply.ts";
import { accountRoutes } from "#server/routes/account.ts";
import { apiPlugin } from "#server/routes/api.ts";
import { apiReferenceRoutes } from "#server/routes/api-reference.ts";
import { documentRoutes } from "#server/routes/documents.ts";
import { healthRoutes } from "#server/routes/health.ts";
import { pageRoutes } from "#server/routes/pages.tsx";
import { sandboxRoutes } from "#server/routes/sandbox.ts";
import { sessionRoutes } from "#server/routes/session.ts";
import { isLoopback } from "#server/security/loopback.ts";
import { SEEN_GRANULARITY_MS } from "#server/session/fields.ts";
import { sessionPlugin } from "#server/session/plugin.ts";
import { preloadIslands } from "#web/islands/registry.ts";

export type BuildOptions = ContextOptions & {
  config: Config;
  /** The upstream's base URL: a real one, or the embedded sandbox's. */
  upstreamUrl: string;
  logger?: FastifyServerOptions["logger"];
};

export async function buildApp({ config, upstreamUrl, logger, ...options }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    genReqId: () => randomUUID(),
    // One trusted hop: the TLS-terminating proxy. Its X-Forwarded-* count; entries a browser wrote before it do not.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop < 1 : false,
    bodyLimit: 16 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    routerOptions: { maxParamLength: 256, querystringParser },
    frameworkErrors,
    clientErrorHandler: clientErrors,
    // A slow client gets its 408 (clientErrors) within a second of its deadline: Node checks them that often.
    requestTimeout: config.clients.requestTimeoutMs,
    http: {
      // A request without a Host header reaches the Host check below, answered with every answer's headers.
      requireHostHeader: false,
      headersTimeout: config.clients.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.clients.headersTimeoutMs),
    },
    logController: new OneLinePerRequest(),
    return503OnClosing: false, // answered by installShutdown, in the portal's shape
  });
  // An Expect Node cannot meet is answered as every answer is, not with Node's bare 417.
  app.server.on("checkExpectation", expectationFailed);
  // Behind the proxy every socket is the proxy's, which buffers slow clients itself.
  if (!config.trustProxy) limitSocketsPerAddress(app.server, config.clients.maxSocketsPerAddress);
  // First of all, the headers every answer carries, the 421 below and every refusal after it included.
  await app.register(securityHeadersPlugin);
  // Then: a name this portal does not serve reads nothing (DNS rebinding).
  refuseOtherHosts(app, allowedHostNames({ publicUrl: config.publicUrl, loopback: isLoopback(config.host) }));
  const context = await createContext(config, upstreamUrl, app.log, options);
  await preloadIslands();
  app.decorate("ledger", context.stores.ledger);
  app.decorate("account", {
    activity: context.stores.activity,
    devices: context.stores.devices,
    now: context.now,
    liveMs: config.session.idleSeconds * 1000 + SEEN_GRANULARITY_MS,
  });

  installErrorHandling(app);
  // No answer may be kept by a cache unless its route says how long (the hashed assets, the favicon's redirect): the
  // one place that says so, for pages, documents, /api, the probes, the metrics and a stopping portal's 503 alike.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    done(null, payload);
  });
  const shutdown = installShutdown(app, stopTimings(config.stopScale).visitFlushMs);
  await app.register(queryLimit);
  await app.register(fastifyStatic, {
    root: assetsDir.pathname,
    prefix: "/assets/",
    preCompressed: true,
    immutable: true,
    maxAge: "365d",
    decorateReply: false,
    index: false,
  });
  // Browsers ask for /favicon.ico whatever a page links. Answered here, outside the session, it never reaches the
  // pages, which would send it to the sign-in page and use up that page's one-time notice.
  const icon = readManifest().images["icon-32.png"];
  app.get("/favicon.ico", async (_request, reply) =>
    icon ? reply.header("cache-control", "public, max-age=86400").redirect(icon, 301) : reply.code(404).send(),
  );
  await app.register(healthRoutes, context);
  await app.register(metricsPlugin, context);
  // Development only: swagger-ui-dist is a devDependency, absent from the production tree.
  if (config.env === "development") await app.register(apiReferenceRoutes);

  // Every route a person's form posts to: the session's, and the sandbox's relayed pages beside it (development).
  await app.register(async function withForms(forms) {
    const screens: Screens = { context, assets: readManifest() };
    // `reply.page` for the pages, and for the page a person's form another site posted is refused with: one handler
    // for the session's forms and the sandbox's alike (SECURITY.md, item 6).
    await decoratePage(forms, context, screens.assets);
    forms.setErrorHandler(refusedForm(screens));
    if (context.sandboxUrl)
      await forms.register(sandboxRoutes, { sandboxUrl: context.sandboxUrl, timeoutMs: config.upstreamTimeoutMs });

    await forms.register(async function withSession(scope) {
      await scope.register(csrfPlugin); // before the session is read: a refused request writes nothing
      await scope.register(sessionPlugin, { context });
      // As large as any other body: a form's over-long field is said to be too long by its name (server/routes/sign-in-forms.ts).
      await scope.register(formbody, { bodyLimit: 16 * 1024 });
      await scope.register(apiPlugin, { prefix: "/api", context });
      await scope.register(documentRoutes, context);
      await scope.register(sessionRoutes, context);
      await scope.register(accountRoutes, context);
      await scope.register(pageRoutes, screens);
    });
  });
  app.addHook("onClose", async () => {
    await context.tracker.flush(shutdown.visitsMayTake());
    await context.stores.close();
  });
  return app;
}
