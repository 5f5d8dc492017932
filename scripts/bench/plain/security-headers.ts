// Row 11c's plain side, in place of server/plugins/security-headers.ts: @fastify/helmet registered as its README says,
// with the portal's options, and each page route given the pages' policy as its route option (helmet's middleware built
// for every request, as the plugin does). The policies and the directive functions are the portal's own.
import type { IncomingMessage, ServerResponse } from "node:http";
import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";
import { pagePolicy, securityHeaders } from "#server/plugins/security-headers.ts";

export {
  nonceOf,
  pageDirectives,
  pagePolicy,
  securityHeaderLines,
  securityHeaders,
} from "#server/plugins/security-headers.ts";

export function writeSecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  helmet(securityHeaders)(request, response, () => {});
}

export function writePageHeaders(request: IncomingMessage, response: ServerResponse): void {
  helmet({ ...securityHeaders, contentSecurityPolicy: pagePolicy })(request, response, () => {});
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRoute", (route) => {
    if (route.config?.policy === "page") route.helmet = { contentSecurityPolicy: pagePolicy };
  });
  await app.register(fastifyHelmet, securityHeaders);
});
