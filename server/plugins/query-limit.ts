// The bound on an address's query parameters: the router's parser stops at it, and a longer list is refused with a
// clear error before any other work (1,500 keys cost about six plain pages to parse and check).
import { parse } from "fast-querystring";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { invalidRequest } from "#server/plugins/errors.ts";
import { serverTexts } from "#server/texts.ts";

/** No page or call of the portal takes more than a handful; the sandbox's mailbox takes two. */
export const MAX_QUERY_PARAMETERS = 50;

/** More `&`-separated pairs than the bound, found by a scan that stops there rather than by parsing. */
function tooMany(query: string): boolean {
  let pairs = 1;
  for (let at = query.indexOf("&"); at !== -1; at = query.indexOf("&", at + 1)) {
    if (++pairs > MAX_QUERY_PARAMETERS) return true;
  }
  return false;
}

/** Fastify's own parser (fast-querystring), which leaves a list over the bound unparsed: the hook refuses it. */
export const querystringParser = (query: string): Record<string, unknown> =>
  query.length === 0 || tooMany(query) ? {} : parse(query);

export const queryLimit = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    const at = request.url.indexOf("?");
    if (at !== -1 && tooMany(request.url.slice(at + 1))) {
      reply.code(400).send(invalidRequest(serverTexts.tooManyParameters.message(MAX_QUERY_PARAMETERS)));
      return;
    }
    done();
  });
});
