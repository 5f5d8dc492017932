// Login by link (requirements 2.6 / 4.6): spends the link's uuid, then lands on the audience's home.

import { useEffect, useRef, useState } from "react";
import { api, failureCode, failureText } from "#web/api/client.ts";
import { Isolated, isolate } from "#web/components/isolated.tsx";
import { BusyOverlay, Note, Notes } from "#web/components/note.tsx";
import { useNoteFocus } from "#web/components/use-note-focus.ts";
import { REPLACE_SESSION_HEADER } from "#web/protocol/headers.ts";
import { asHeld } from "#web/protocol/held.ts";
import { landingUrl, type Site } from "#web/site.ts";
import { answerCodes } from "#web/texts/errors.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";

/** The session this browser already has, when it has one: the link then waits for a click. */
export type CurrentSession = { name: string; site: Site; company?: string };
export type LinkLoginIslandProps = {
  uuid: string | null;
  site: Site;
  current?: CurrentSession;
  /** Why the link's plain form (sent without script) did not sign in: shown, and nothing is tried again. */
  failure?: string;
  /**
   * Another site's page opened the link by itself, with no click of the person's (server/loaders/public.tsx): it is
   * spent only on the person's click here, so no site signs a browser into an account it chose.
   */
  unasked?: true;
};

/**
 * Without script nothing spends the link by itself: a plain form the person sends does, posting the link to its own
 * page (server/routes/sign-in-forms.ts), which makes the island's /api call. `replace` only on the click that says the
 * session beside it may end, as the island's X-Portal-Replace-Session.
 */
function LinkForm({
  uuid,
  site,
  replace,
  onSubmit,
}: {
  uuid: string;
  site: Site;
  replace?: true;
  onSubmit?: () => void;
}) {
  return (
    <form
      method="post"
      action="/login"
      className="link-login-form"
      onSubmit={(event) => {
        if (!onSubmit) return;
        event.preventDefault();
        onSubmit();
      }}
    >
      <input type="hidden" name="uuid" value={uuid} />
      <input type="hidden" name="type" value={site === "vendor" ? "Vendor" : "Client"} />
      {replace ? <input type="hidden" name="replace" value="1" /> : null}
      <button type="submit">{replace ? linkLoginTexts.continueWithLink : linkLoginTexts.continueWithoutScript}</button>
    </form>
  );
}

/** A link is spent once, so the call runs once per page even if React mounts the island twice. */
async function spendLink(uuid: string, site: Site, replace: boolean) {
  const options = { params: { query: { uuid } }, headers: replace ? { [REPLACE_SESSION_HEADER]: "1" } : {} };
  return site === "vendor" ? api.POST("/auth/vendor-token", options) : api.POST("/auth/client-token", options);
}

export default function LinkLoginIsland({ uuid, site, current, failure: sentBack, unasked }: LinkLoginIslandProps) {
  const [failure, setFailure] = useState<string | undefined>(sentBack);
  const [waiting, setWaiting] = useState(unasked === true);
  // The session this browser has, named by the page, or by the portal's refusal when the page came from another site
  // (whose navigation carries no cookie): the link then waits for a click.
  const [beside, setBeside] = useState(
    current &&
      linkLoginTexts.signedInAs(
        linkLoginTexts.whoIs({ ...current, name: isolate(current.name), company: isolate(current.company ?? "") }),
      ),
  );
  const [confirmed, setConfirmed] = useState(false);
  // The page's plain Continue is for a page without script (or before it): once awake, the island spends the link.
  const [awake, setAwake] = useState(false);
  useEffect(() => setAwake(true), []);
  const started = useRef(false);
  const [notes, focusNote] = useNoteFocus();

  useEffect(() => {
    if (started.current || !uuid || sentBack || waiting || (beside && !confirmed)) return;
    started.current = true;
    void spendLink(uuid, site, confirmed).then(({ data, error }) => {
      if (failureCode(error) === answerCodes.sessionExists && error) {
        started.current = false;
        return setBeside(failureText(error));
      }
      if (error) setFailure(linkLoginTexts.failed(failureText(error)));
      else if (!data)
        return; // a 401: the browser is on its way to the login page
      else if (asHeld(data)?.tokenHeld)
        return window.location.assign(landingUrl(`/${site}/home`)); // requirements 2.6
      else setFailure(linkLoginTexts.invalid);
      focusNote();
    });
  }, [uuid, site, sentBack, waiting, beside, confirmed, focusNote]);

  // A bare /login tried nothing, so it is no failed sign-in: it says what is missing, from the server.
  if (!uuid && !failure) {
    return (
      <div className="login-box link-login">
        <h1>{linkLoginTexts.incompleteHeading}</h1>
        <p>{linkLoginTexts.incomplete}</p>
        <p>
          <a href="/" className="button-link">
            {linkLoginTexts.signIn}
          </a>
        </p>
      </div>
    );
  }

  if (waiting && uuid && !(beside && !confirmed)) {
    return (
      <div className="login-box link-login">
        <h1>{linkLoginTexts.heading}</h1>
        <p>{linkLoginTexts.openedByAnotherSite}</p>
        <LinkForm uuid={uuid} site={site} onSubmit={() => setWaiting(false)} />
      </div>
    );
  }

  if (beside && !confirmed) {
    return (
      <div className="login-box link-login">
        <h1>{linkLoginTexts.replaceHeading}</h1>
        <p>
          <Isolated text={beside} />
        </p>
        <p>{linkLoginTexts.replaceWarning}</p>
        {/* The same button with script or without: the island takes the click, a page without script posts it. */}
        {uuid ? <LinkForm uuid={uuid} site={site} replace onSubmit={() => setConfirmed(true)} /> : null}
        <p>
          <a href="/">{linkLoginTexts.stay}</a>
        </p>
      </div>
    );
  }

  return (
    <div className="login-box link-login">
      <h1>{linkLoginTexts.heading}</h1>
      <div ref={notes}>
        <Notes>{failure ? <Note kind="error">{failure}</Note> : null}</Notes>
      </div>
      {failure ? (
        <>
          {failure === linkLoginTexts.invalid ? <p>{linkLoginTexts.invalidHint}</p> : null}
          <p>
            <a href="/" className="button-link">
              {linkLoginTexts.signIn}
            </a>
          </p>
        </>
      ) : (
        <>
          <BusyOverlay text={linkLoginTexts.authenticating} />
          {uuid && !awake ? (
            <div className="link-login-continue">
              <p>{linkLoginTexts.withoutScript}</p>
              <LinkForm uuid={uuid} site={site} />
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
