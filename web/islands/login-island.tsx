// The login page's content (requirements 2.2): site tabs, login forms, Password Reset panel and the inline MFA step.
import { useSignals } from "@preact/signals-react/runtime";
import {
  type ComponentProps,
  lazy,
  type ReactNode,
  Suspense,
  startTransition,
  useEffect,
  useRef,
  useState,
} from "react";
import { LoginForm } from "#web/components/login-form.tsx";
import { MfaPlaceholder } from "#web/components/mfa-placeholder.tsx";
import { Note, Notes } from "#web/components/note.tsx";
import type { ResetPanelState } from "#web/components/reset-panel.tsx";
import { panelId, SiteTabs, siteLink, tabId } from "#web/components/site-tabs.tsx";
import { SupportSentence } from "#web/components/support.tsx";
import { earlyValues, focusTaken } from "#web/components/use-early-input.ts";
import type { LoginMessage, Site } from "#web/site.ts";
import { lastSite } from "#web/state/local-storage.ts";
import {
  activeSite,
  dropSignIn,
  holdSignIn,
  type LoginMode,
  mode,
  pageError,
  pendingSignIn,
  seedLoginPage,
  tokenHeld,
  valuesOf,
} from "#web/state/login-page.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

export type LoginIslandProps = {
  /** The tab's text for each step the page shows (the server writes them: the island carries no titles of its own). */
  titles: Record<LoginMode, string>;
  support: { phone: string; phoneUk: string; email: string };
  providerName: string;
  /** requirements 2.2's navigation state: a message, and the path the browser should show instead of this one. */
  flash?: { error: string; pathname?: string };
  activeSite?: "CLIENT" | "VENDOR";
  /** Where a completed sign-in goes (web/site.ts `landingUrl`, with the page first asked for). */
  landing: string;
  /** The page was reloaded while a login's token is held: the MFA step shows straight away. */
  pending?: { site: Site; company: string; userName: string; loginMessage: LoginMessage; quiet?: true };
  /** A login form posted before the script arrived, sent back: the IDs typed (its note is the flash). */
  typed?: { shortName: string; userName: string; remember: boolean };
  /** The reset panel is open (its link, `?reset`), or a reset form was sent back: its confirmation, or note and typing. */
  reset?: ResetPanelState;
  /** The page first asked for, kept in the tabs' links. */
  returnTo?: string;
  /** The page is `/tax-bridge/login`: its sign-in is in tax-bridge mode (TAX_BRIDGE_HEADER). */
  taxBridge?: true;
};

// The login form is what the page opens with; the MFA step and the reset panel come after a click, so each is
// its own chunk (the login page's first load stays near the React runtime alone). The MFA chunk is fetched as
// soon as a login is submitted, while the server checks the password.
const loadMfaStep = () => import("#web/components/mfa-step.tsx");
const MfaStep = lazy(() => loadMfaStep().then((module) => ({ default: module.MfaStep })));
const loadResetPanel = () => import("#web/components/reset-panel.tsx");
const LazyResetPanel = lazy(() => loadResetPanel().then((module) => ({ default: module.ResetPanel })));
// The server renders the panel itself when the page opens on it (its link, a reset form sent back), so it works
// before the island wakes; the browser takes it over when its chunk arrives (the Suspense boundary waits for it).
let ServerResetPanel: typeof import("#web/components/reset-panel.tsx").ResetPanel | undefined;
const ResetPanel = (props: ComponentProps<typeof LazyResetPanel>) =>
  ServerResetPanel ? <ServerResetPanel {...props} /> : <LazyResetPanel {...props} />;

/** Server only (web/islands/registry.ts): the steps the server renders, loaded before the first page. */
export async function preload(): Promise<void> {
  ServerResetPanel = (await loadResetPanel()).ResetPanel;
}

const siteOf = (value: LoginIslandProps["activeSite"]): Site | undefined =>
  value === "VENDOR" ? "vendor" : value === "CLIENT" ? "client" : undefined;

export default function LoginIsland(props: LoginIslandProps) {
  const { support, providerName, flash, landing, pending, titles, typed, reset, returnTo } = props;
  const chosenSite = siteOf(props.activeSite);
  // Seeded before the first read, once per mount (see seedLoginPage for why this is safe on the server).
  useState(() => {
    seedLoginPage({
      ...(chosenSite ? { activeSite: chosenSite } : {}),
      ...(pending ? { pending } : {}),
      ...(flash ? { error: flash.error } : {}),
      ...(typed ? { typed } : {}),
      ...(reset ? { reset: true } : {}),
    });
    return true;
  });
  useSignals();
  // The server and the hydrating render show the placeholder in place of the lazy MFA step, so they agree.
  const [mounted, setMounted] = useState(false);
  // The first login form to open takes the focus (its first empty field); one opened later by a tab does not.
  const focusPending = useRef(true);
  const message = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // How the page opened the reset panel: for its first opening only (Return To Login, or another tab, forgets it).
  const resetSeed = useRef(reset);
  // A sign-in the MFA step lost (too many codes, an expiry) comes back to the form with its note, which takes the
  // focus: the step that held it is gone.
  const noteTakesFocus = useRef(false);
  useEffect(() => {
    if (!noteTakesFocus.current || mode.value !== "login") return;
    noteTakesFocus.current = false;
    message.current?.querySelector<HTMLElement>(".note")?.focus();
  });
  // The panel was left (Return To Login, Escape): the focus goes back to the link that opens it, not to the page.
  const leftReset = useRef(false);
  const shownMode = mode.value;
  // After every render: cheap, and the one after leaving the panel is the first to show the link again.
  useEffect(() => {
    if (shownMode !== "login" || !leftReset.current) return;
    leftReset.current = false;
    box.current?.querySelector<HTMLElement>(".reset-link a")?.focus();
  });

  useEffect(() => {
    // A person already in the page (typing, or on a tab) before it woke keeps their place: nothing moves under them.
    const typedEarly = Object.values(earlyValues(box.current, ["shortName", "userName", "password"])).some(Boolean);
    const busy = focusTaken() || typedEarly;
    // Without a site in the navigation state, the page opens on the site of the last accepted login.
    const remembered = lastSite();
    if (!chosenSite && !pending && !reset && !busy && remembered) activeSite.value = remembered;
    // A message from the server (session expired, signed out) is read first: it holds the focus.
    if (busy) focusPending.current = false;
    else if (flash && !pending) {
      focusPending.current = false;
      message.current?.querySelector<HTMLElement>(".note")?.focus();
    }
    // A transition: a part of the page still waiting for its chunk (the reset panel the server rendered) keeps the
    // server's markup, and what was typed in it, until it arrives; an urgent update would render it afresh.
    startTransition(() => setMounted(true));
  }, [chosenSite, pending, flash, reset]);

  // "You have signed out." is said once: the address forgets it, so a reload or a bookmark does not say it again.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has("signed-out")) return;
    url.searchParams.delete("signed-out");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}`);
  }, []);

  useEffect(() => {
    const target = flash?.pathname;
    if (target && target !== window.location.pathname) window.history.replaceState(window.history.state, "", target);
  }, [flash?.pathname]);

  // The tab names the step shown: the login form, the reset panel or the MFA step.
  const tabTitle = titles[mode.value];
  useEffect(() => {
    document.title = tabTitle;
  }, [tabTitle]);

  const site = activeSite.value;
  const held = pendingSignIn.value;
  const error = pageError.value;
  // "You have signed out." arrives through the same flash as errors but is no error.
  const errorKind = error === loginTexts.signedOut ? "info" : "error";

  const selectSite = (next: Site) => {
    resetSeed.current = undefined;
    activeSite.value = next;
    pageError.value = null;
  };

  let content: ReactNode;
  if (mode.value === "mfa" && held) {
    content = !mounted ? (
      <MfaPlaceholder />
    ) : (
      <Suspense fallback={<MfaPlaceholder />}>
        <MfaStep
          site={held.site}
          company={held.company}
          userName={held.userName}
          loginMessage={held.loginMessage}
          landing={landing}
          onSessionLost={(text) => {
            noteTakesFocus.current = true;
            dropSignIn(text);
          }}
          {...(held.password ? { password: held.password } : {})}
          {...(held.quiet ? { quiet: held.quiet } : {})}
          remember={held.remember}
          action="/mfa"
        />
      </Suspense>
    );
  } else if (mode.value === "reset") {
    content = (
      <Suspense fallback={null}>
        <ResetPanel
          key={site}
          site={site}
          shortName={valuesOf(site).shortName}
          {...(resetSeed.current ? { opened: resetSeed.current } : {})}
          returnLink={siteLink(site, returnTo)}
          onReturn={() => {
            resetSeed.current = undefined;
            leftReset.current = true;
            focusPending.current = false;
            mode.value = "login";
          }}
        />
      </Suspense>
    );
  } else {
    const focusFirstEmpty = mounted && focusPending.current;
    if (focusFirstEmpty) focusPending.current = false;
    content = (
      <>
        <LoginForm
          key={site}
          site={site}
          providerName={providerName}
          taxBridge={props.taxBridge === true}
          onHeld={holdSignIn}
          focusFirstEmpty={focusFirstEmpty}
          onAttempt={() => {
            pageError.value = null;
            void loadMfaStep();
          }}
        />
        <p className="reset-link">
          {/* A link to the page with the panel open (`?reset`), which the island opens in place. */}
          <a
            href={siteLink(site, returnTo, "reset")}
            onClick={(event) => {
              event.preventDefault();
              // A notice about the last sign-in (signed out, expired) belongs to the login form, not the reset.
              pageError.value = null;
              mode.value = "reset";
            }}
          >
            {loginTexts.resetLink}
          </a>
        </p>
      </>
    );
  }

  return (
    <div className="login-box" ref={box} data-ready={mounted || undefined}>
      {/* The MFA step and the reset panel carry their own heading; the login forms share this one. */}
      {mode.value === "login" ? <h1 className="login-heading">{loginTexts.heading}</h1> : null}
      <SiteTabs active={site} disabled={tokenHeld.value} onSelect={selectSite} returnTo={returnTo} />
      <div className="login-panel" id={panelId} role="tabpanel" aria-labelledby={tabId(site)}>
        <div ref={message}>
          <Notes>{error ? <Note kind={errorKind}>{error}</Note> : null}</Notes>
        </div>
        {content}
      </div>
      <p className="support">
        <SupportSentence support={support} />
      </p>
    </div>
  );
}
