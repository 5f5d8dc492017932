// Builds the portal as a Fastify app; it never listens (main.ts does), so tests build it and inject requests.
import { randomUUID } from "node:crypto";
import formbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Config } from "#server/config.ts";
import { type ContextOptions, createContext } from "#server/context.ts";
import { frameworkErrors, installErrorHandling } from "#server/errors.ts";
import { loggerOptions, OneLinePerRequest } from "#server/logging.ts";
import { csrfPlugin } from "#server/plugins/csrf.ts";
import { securityHeadersPlugin } from "#server/plugins/security-headers.ts";
import { sessionPlugin } from "#server/plugins/session.ts";
import { assetsDir } from "#server/render/assets.ts";
import { apiRoutes } from "#server/routes/api.ts";
import { apiReferenceRoutes } from "#server/routes/api-reference.ts";
import { documentRoutes } from "#server/routes/documents.ts";
import { healthRoutes } from "#server/routes/health.ts";
import { metricsRoutes } from "#server/routes/metrics.ts";
import { pageRoutes } from "#server/routes/pages.tsx";
import { sandboxRoutes } from "#server/routes/sandbox.ts";
import { sessionRoutes } from "#server/routes/session.ts";
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
    routerOptions: { maxParamLength: 256 },
    frameworkErrors,
    logController: new OneLinePerRequest(),
  });
  const context = createContext(config, upstreamUrl, app.log, options);
  await preloadIslands();

  installErrorHandling(app);
  await app.register(formbody, { bodyLimit: 4 * 1024 });
  await app.register(securityHeadersPlugin);
  await app.register(sessionPlugin, { context });
  await app.register(csrfPlugin);
  await app.register(fastifyStatic, {
    root: assetsDir.pathname,
    prefix: "/assets/",
    preCompressed: true,
    immutable: true,
    maxAge: "365d",
    decorateReply: false,
    index: false,
  });
  await app.register(healthRoutes, context);
  await app.register(metricsRoutes, context);
  await app.register(apiRoutes, context);
  await app.register(documentRoutes, context);
  await app.register(sessionRoutes, context);
  if (context.sandboxUrl) await app.register(sandboxRoutes, { sandboxUrl: context.sandboxUrl });
  // Development only: swagger-ui-dist is a devDependency, absent from the production tree.
  if (config.env === "development") await app.register(apiReferenceRoutes);
  await app.register(pageRoutes, context);
  app.addHook("onClose", async () => context.tracker.flush());
  return app;
}
