// Login by link (SPEC.md 2.6 / 4.6): spends the link's uuid, then lands on the audience's home.

import { useEffect, useRef, useState } from "react";
import { api } from "#web/api/client.ts";
import { asHeld } from "#web/api/held.ts";
import { BusyOverlay, Note, Notes } from "#web/components/note.tsx";
import { useNoteFocus } from "#web/components/use-note-focus.ts";
import { landingUrl, type Site } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";

/** The session this browser already has, when it has one: the link then waits for a click (review B2). */
export type CurrentSession = { name: string; site: Site; company?: string };
export type LinkLoginIslandProps = { uuid: string | null; site: Site; current?: CurrentSession };

const whoIs = ({ name, site, company }: CurrentSession) =>
  [name || (site === "vendor" ? "a vendor" : "a client"), company].filter(Boolean).join(", ");

/** A link is spent once, so the call runs once per page even if React mounts the island twice. */
async function spendLink(uuid: string, site: Site) {
  const options = { params: { query: { uuid } } };
  return site === "vendor" ? api.POST("/auth/vendor-token", options) : api.POST("/auth/client-token", options);
}

export default function LinkLoginIsland({ uuid, site, current }: LinkLoginIslandProps) {
  const [failure, setFailure] = useState<string>();
  const [confirmed, setConfirmed] = useState(!current);
  const started = useRef(false);
  const [notes, focusNote] = useNoteFocus();

  useEffect(() => {
    if (started.current || !uuid || !confirmed) return;
    started.current = true;
    void spendLink(uuid, site).then(({ data, error }) => {
      if (error) setFailure(linkLoginTexts.failed(error.detail ?? errorTexts.actionFailed));
      else if (!data)
        return; // a 401: the browser is on its way to the login page
      else if (asHeld(data)?.tokenHeld)
        return window.location.assign(landingUrl(`/${site}/home`)); // SPEC.md 2.6
      else setFailure(linkLoginTexts.invalid);
      focusNote();
    });
  }, [uuid, site, confirmed, focusNote]);

  // Issue 14, #10: a bare /login tried nothing, so it is no failed sign-in: it says what is missing, from the server.
  if (!uuid) {
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

  if (current && !confirmed) {
    const who = whoIs(current);
    return (
      <div className="login-box link-login">
        <h1>{linkLoginTexts.replaceHeading}</h1>
        <p>{linkLoginTexts.signedInAs(who)}</p>
        <p>{linkLoginTexts.replaceWarning}</p>
        <p>
          <button type="button" onClick={() => setConfirmed(true)}>
            {linkLoginTexts.continueWithLink}
          </button>
        </p>
        <p>
          <a href="/">{linkLoginTexts.stay(who)}</a>
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
              {linkLoginTexts.backToLogin}
            </a>
          </p>
        </>
      ) : (
        <BusyOverlay text={linkLoginTexts.authenticating} />
      )}
    </div>
  );
}
