// Development only: openapi/portal.yaml as a reference page at /reference, by @fastify/swagger and @fastify/swagger-ui.
import type { FastifyInstance } from "fastify";
import { projectFile } from "#server/project-files.ts";

/** The page loads only its own files; nothing inline, nothing from elsewhere, never framed. */
const policy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Both packages are devDependencies, absent from the production tree: imported here, only when development asks. */
async function loadPlugins() {
  try {
    const [swagger, swaggerUi] = await Promise.all([import("@fastify/swagger"), import("@fastify/swagger-ui")]);
    return { swagger: swagger.default, swaggerUi: swaggerUi.default };
  } catch {
    return undefined;
  }
}

export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  const plugins = await loadPlugins();
  if (!plugins) {
    app.log.warn("@fastify/swagger-ui is not installed (devDependencies pruned): no API reference at /reference");
    return;
  }
  await app.register(plugins.swagger, {
    mode: "static",
    specification: {
      path: projectFile("openapi/portal.yaml"),
      baseDir: projectFile("openapi"),
    },
  });
  await app.register(plugins.swaggerUi, {
    routePrefix: "/reference",
    staticCSP: policy,
    theme: { title: "Upstream API reference (openapi/portal.yaml)" },
    // "Try it out" is off: the upstream's operations are reached through the portal's /api (with its CSRF header).
    uiConfig: { deepLinking: true, supportedSubmitMethods: [], layout: "BaseLayout" },
  });
}
