// What every screen's `load` shares: what it returns (a page to render, or a redirect), and what it reads.
import type { FastifyRequest } from "fastify";
import type { ReactElement } from "react";
import type { AppContext } from "#server/context.ts";
import { signedInOn, taxBridgeEntered } from "#server/session/standing.ts";
import type { AssetManifest, PageContext } from "#web/pages/page-context.ts";

export type Query = Record<string, string | undefined>;
export type PageRequest = FastifyRequest<{ Querystring: Query }>;

/** A page to render (`reply.page` sends it), or where the browser goes instead. */
export type Loaded = PageView | { redirect: string };

export type PageView = {
  status?: number;
  title: string;
  body: ReactElement;
  /** Seconds after which the page asks again by itself (the checking page). */
  retryAfter?: number;
  /** The change-password form of a session whose password expired: the one page such a session has. */
  ownForm?: boolean;
};

/** What a screen's `load` reads besides the request: the app's context and the build's assets. */
export type Screens = { context: AppContext; assets: AssetManifest };

export const redirect = (to: string): Loaded => ({ redirect: to });

/** The path of a request as the browser sent it (what wouter would see as `location.pathname`). */
export const pathnameOf = (url: string): string => url.split(/[?#]/, 1)[0] ?? "/";

export const taxBridgeOn = (context: AppContext, request: FastifyRequest) =>
  context.config.taxBridge || taxBridgeEntered(request);

/**
 * What every page's frame shows: the user (and company), support contacts, the mode, the year. The user is shown
 * for a signed-in session, and for one allowed only its password change on that form (`ownForm`) alone.
 */
export function pageContextOf(
  { context, assets }: Screens,
  request: FastifyRequest,
  { ownForm = false }: { ownForm?: boolean } = {},
): PageContext {
  const auth = signedInOn(request, ownForm);
  return {
    assets,
    support: context.config.support,
    providerName: context.config.providerName,
    taxBridge: taxBridgeOn(context, request),
    path: pathnameOf(request.url),
    ...(auth
      ? { user: { name: auth.userName, site: auth.site, ...(auth.company ? { company: auth.company } : {}) } }
      : {}),
    year: new Date(context.now()).getUTCFullYear(),
  };
}
