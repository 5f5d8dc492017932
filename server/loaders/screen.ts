// What every screen's `load` shares: what it returns (a page to render, or a redirect), and what it reads.
import type { FastifyRequest } from "fastify";
import type { ReactElement } from "react";
import type { AppContext } from "#server/context.ts";
import { signedIn, taxBridgeEntered } from "#server/session/fields.ts";
import type { AssetManifest, PageContext } from "#web/page-context.ts";
import { pathnameOf } from "#web/site.ts";

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
  /** The address it asks again (the page's own by default). */
  retryPath?: string;
  /** The page moves on by itself, after `seconds`, to `to` (the forced password change's success, script or not). */
  moveOn?: { seconds: number; to: string };
  /**
   * The change-password step of a session whose password expired, the one page such a session has: its visit is
   * recorded (requirements 4.8), though the page is the sign-in's own, not framed as signed in.
   */
  ownForm?: boolean;
};

/** What a screen's `load` reads besides the request: the app's context and the build's assets. */
export type Screens = { context: AppContext; assets: AssetManifest };

export const redirect = (to: string): Loaded => ({ redirect: to });

export const taxBridgeOn = (context: AppContext, request: FastifyRequest) =>
  context.config.taxBridge || taxBridgeEntered(request);

/**
 * What every page's frame shows: the user (and company), support contacts, the mode, the year. The user is shown
 * for a fully signed-in session only (`signedIn`): a sign-in still at its code or its expired password is not one.
 */
export function pageContextOf({ context, assets }: Screens, request: FastifyRequest): PageContext {
  const auth = signedIn(request);
  return {
    assets,
    support: context.config.support,
    providerName: context.config.providerName,
    taxBridge: taxBridgeOn(context, request),
    path: pathnameOf(request.url),
    ...(auth
      ? {
          user: { name: auth.userName, site: auth.site, ...(auth.company ? { company: auth.company } : {}) },
          idleWarning: true,
        }
      : {}),
    year: new Date(context.now()).getUTCFullYear(),
  };
}
