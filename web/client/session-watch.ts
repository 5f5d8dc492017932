// What the idle warning (web/components/idle-warning.tsx) gains where scripts run: a countdown, "Stay signed in"
// without leaving the page (nothing typed is lost), dismissal by its button or Escape, room below the field being
// typed in, and the truth about the session within seconds. The server's clock decides: before the warning shows, the
// page asks it how long is left (a form sent or another tab's page restarts it). The page also asks every few seconds
// while it is in view, when it comes back into view or gets the focus, and when another tab has news (BroadcastChannel
// "idle-warning": a page loaded, a "Stay signed in", a sign-out, an end). Once the session it was shown for is over
// (ended for any reason, or replaced by another sign-in), the page stays where it is, everything typed kept: the warning
// turns into the notice of why, with the way to sign in again, and the page's forms send nothing more.
// Its words are in the page or in the server's answer: this script writes only the time, so it carries no texts module.
import {
  IDLE_CHECK_MARGIN_SECONDS,
  IDLE_WARNING_SECONDS,
  idleCheckUrl,
  STATUS_CHECK_SECONDS,
} from "#web/idle-timing.ts";
import type { EndReason, SessionLeft, SessionOver } from "#web/protocol/session-end.ts";

/** What one tab tells the others of the session `session` (a digest): its time left, a sign-out, or its end. */
type TabNews = { session: string | undefined } & ({ idleSeconds: number } | { signedOut: true } | SessionOver);

/** What the page knows at its start: when to ask at the idle limit, and which session it was shown for. */
export type Watched = { checkIn?: number; session?: string };

/**
 * Keeps the warning `warning` and watches the session. Without `checkIn` (a page loaded before its sign-in), the page
 * first asks the server, and takes the session that answers as its own.
 */
export function watchSession(warning: HTMLElement, { checkIn, session }: Watched): void {
  const countdown = warning.querySelector<HTMLElement>(".idle-countdown");
  const seconds = warning.querySelector<HTMLElement>(".idle-seconds");
  const stay = warning.querySelector<HTMLFormElement>("form.idle-stay");
  const dismiss = warning.querySelector<HTMLButtonElement>(".idle-dismiss");
  const endedNotice = warning.querySelector<HTMLElement>(".session-ended");
  const path = `${location.pathname}${location.search}`;
  const tabs = "BroadcastChannel" in window ? new BroadcastChannel("idle-warning") : undefined;
  let mine = session; // the session this page was shown for
  let limit = Date.now() + ((checkIn ?? 0) - IDLE_CHECK_MARGIN_SECONDS) * 1000;
  let dismissed = false;
  let confirmed = false; // the server has said the warning is due
  let over = false; // the session this page was shown for has ended
  let told: EndReason | undefined; // another tab said the person signed out there
  let before: HTMLElement | null = null; // what had the focus before the warning took it

  warning.style.animation = "none";
  if (dismiss) dismiss.hidden = false;

  const shown = () => warning.style.visibility === "visible";
  /**
   * A field the warning would cover (on a phone, it spans the screen's width) scrolls up above it. With no focus the
   * body is the active element: it never scrolls, or a tab told of an end would jump to the page's middle.
   */
  const uncover = (field: Element | null) => {
    if (!shown() || !(field instanceof HTMLElement) || field === document.body || warning.contains(field)) return;
    const covered = field.getBoundingClientRect().bottom > warning.getBoundingClientRect().top;
    if (covered) field.scrollIntoView({ block: "center" });
  };
  /** Its first control a keyboard reaches at once, unless the person is typing in a field (kept, and uncovered). */
  const reach = (control: HTMLElement | null | undefined) => {
    if (!editing(document.activeElement)) control?.focus();
  };
  const show = (on: boolean) => {
    if (on === shown()) return;
    warning.style.visibility = on ? "visible" : "hidden";
    // Room below the page's content, so that its last field too can scroll up above the warning.
    document.body.style.paddingBottom = on ? `${warning.offsetHeight + 32}px` : "";
    uncover(document.activeElement);
    if (on) reach(warning.querySelector<HTMLButtonElement>("form.idle-stay button"));
  };

  const restart = (idleSeconds: number) => {
    limit = Date.now() + idleSeconds * 1000;
    dismissed = false;
    confirmed = false;
    show(false);
    tick();
  };

  /**
   * The session this page was shown for is over: the warning says why in its place (the server's words, or the
   * page's own for a sign-out or a sign-in in another tab), and nothing on the page acts for a session that is not
   * its own. `tell`: learned from the server, so the other tabs hear it too.
   */
  const end = (reason: EndReason, detail: string, tell: boolean) => {
    if (over || !endedNotice) return;
    over = true;
    window.clearTimeout(timer);
    window.clearInterval(asking);
    if (tell) tabs?.postMessage({ session: mine, ended: reason, detail } satisfies TabNews);
    for (const account of document.querySelectorAll<HTMLElement>(".site-header-account")) account.hidden = true;
    for (const part of warning.querySelectorAll<HTMLElement>("article > *")) part.hidden = part !== endedNotice;
    endedNotice.hidden = false;
    const own = endedNotice.querySelectorAll<HTMLElement>(`[data-ended="${reason}"]`);
    for (const words of own) words.hidden = false;
    const words = endedNotice.querySelector<HTMLElement>(".session-ended-words");
    if (words && own.length === 0) words.textContent = detail;
    const signIn = endedNotice.querySelector<HTMLElement>(".session-ended-sign-in");
    if (signIn) signIn.hidden = own.length > 0; // the page's own words lead on by their own link
    show(true);
    reach(endedNotice.querySelector<HTMLElement>("p:not([hidden]) a"));
  };

  /**
   * What an answer says of this page's session: over (it ends here), or live with the seconds left. Unknown (the
   * portal unreachable, an answer that is not one) says nothing.
   */
  const live = (answer: SessionLeft | SessionOver | undefined): answer is SessionLeft => {
    if (!answer || over) return false;
    if ("ended" in answer) {
      // A session the person signed out of in another tab leaves none to ask about: that tab's word stands.
      end(answer.ended === "not-signed-in" && told ? told : answer.ended, answer.detail, true);
      return false;
    }
    mine ??= answer.session;
    if (answer.session === mine) return true;
    end("replaced", "", true);
    return false;
  };

  const ask = (url = idleCheckUrl(path), init: RequestInit = { method: "GET" }) => status(url, init);

  /** Tries `again` once more after a while: the portal could not be asked. */
  const later = (again: () => void) => {
    if (!over) timer = window.setTimeout(again, STATUS_CHECK_SECONDS * 1000);
  };

  /** Asks the server how long is left before showing the warning: it may have been restarted meanwhile. */
  const confirm = async () => {
    const left = await ask();
    if (!live(left)) return later(confirm);
    if (left.idleSeconds > IDLE_WARNING_SECONDS) return restart(left.idleSeconds);
    limit = Date.now() + left.idleSeconds * 1000;
    confirmed = true;
    tick();
  };

  /** At the limit: another tab may have kept the session, and then this page stays as it is. */
  const check = async () => {
    const left = await ask();
    if (live(left)) restart(left.idleSeconds);
    else later(check);
  };

  /** Whether the session is still this page's, and over or not; a time another tab's action moved on is taken. */
  const look = async () => {
    const left = await ask();
    if (live(left) && left.idleSeconds > IDLE_WARNING_SECONDS) restart(left.idleSeconds);
  };

  let timer: number | undefined;
  function tick(): void {
    window.clearTimeout(timer);
    if (over) return;
    const left = Math.ceil((limit - Date.now()) / 1000);
    if (left + IDLE_CHECK_MARGIN_SECONDS <= 0) {
      void check();
      return;
    }
    if (countdown && seconds) {
      countdown.hidden = false;
      const shown = Math.max(0, left);
      seconds.textContent = `${Math.floor(shown / 60)}:${String(shown % 60).padStart(2, "0")}`;
    }
    if (left <= IDLE_WARNING_SECONDS && !confirmed) {
      void confirm();
      return;
    }
    show(left <= IDLE_WARNING_SECONDS && !dismissed);
    const next = (limit - Date.now()) % 1000; // the next whole second of the countdown
    timer = window.setTimeout(tick, next > 0 ? next : 1000);
  }

  stay?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const left = await ask("/session/stay", { method: "POST", body: new URLSearchParams({ return: path }) });
    // The portal unreachable: the form's own way, which shows the sign-in page or the portal's message.
    if (!left) return stay.submit();
    if (!live(left)) return;
    restart(left.idleSeconds);
    tabs?.postMessage({ session: mine, idleSeconds: left.idleSeconds } satisfies TabNews);
    before?.focus();
  });
  for (const signOut of document.querySelectorAll<HTMLFormElement>('form[action="/session/logout"]'))
    signOut.addEventListener("submit", () => tabs?.postMessage({ session: mine, signedOut: true } satisfies TabNews));
  // Once the session is over, nothing is sent for it. A form holding what was typed stays, and the notice's link
  // takes the focus; an action with nothing typed to keep ("Forget", a session's "Sign out") leads on by that link, to
  // the sign-in page that says why, rather than doing nothing.
  document.addEventListener(
    "submit",
    (event) => {
      if (!over) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const leadsOn = endedNotice?.querySelector<HTMLAnchorElement>("p:not([hidden]) a");
      if (leadsOn && !typedIn(event.target as HTMLFormElement)) location.assign(leadsOn.href);
      else leadsOn?.focus();
    },
    true,
  );

  dismiss?.addEventListener("click", () => {
    dismissed = true;
    show(false);
    before?.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shown() && !over) dismiss?.click();
  });
  // The focus the person leaves behind when they reach for the warning, given back when it goes.
  document.addEventListener("focusin", (event) => {
    if (event.target instanceof HTMLElement && !warning.contains(event.target)) before = event.target;
    uncover(event.target as Element | null);
  });
  tabs?.addEventListener("message", ({ data }: MessageEvent<TabNews>) => {
    if (over) return;
    // News of another session (a sign-in there): whether this page's is still the browser's is the server's to say.
    if (data.session !== mine) return void look();
    if ("ended" in data) end(data.ended, data.detail, false);
    else if ("signedOut" in data) void signedOutElsewhere();
    else restart(data.idleSeconds);
  });

  /** Told as the other tab's form leaves: once the portal has ended the session, this tab says so. */
  const signedOutElsewhere = async () => {
    told = "signed-out";
    for (let tries = 0; tries < 20 && !over; tries += 1) {
      await look();
      await new Promise((resolve) => window.setTimeout(resolve, 250));
    }
  };

  // Asked while the page is in view, and as soon as it comes back to it: a hidden tab hears the others' news.
  const asking = window.setInterval(() => {
    if (document.visibilityState === "visible") void look();
  }, STATUS_CHECK_SECONDS * 1000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !over) void look();
  });
  window.addEventListener("focus", () => {
    if (!over) void look();
  });

  if (checkIn === undefined) {
    void ask().then((left) => live(left) && restart(left.idleSeconds));
    return;
  }
  // This page's load restarted the server's clock (or read it, for a load the browser made by itself): the other tabs
  // learn the time left.
  tabs?.postMessage({ session: mine, idleSeconds: checkIn - IDLE_CHECK_MARGIN_SECONDS } satisfies TabNews);
  tick();
}

/** Whether a form holds something a person typed: a field of theirs (not hidden, read-only or a box) not empty. */
const typedIn = (form: HTMLFormElement) =>
  [
    ...form.querySelectorAll<HTMLInputElement>(
      "input:not([type=hidden],[type=checkbox],[type=radio],[hidden],[readonly]),textarea",
    ),
  ].some((field) => field.value);

/** Whether the focus is in a field being typed in. */
const editing = (element: Element | null) =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement ||
  (element instanceof HTMLElement && element.isContentEditable);

/** Asks the portal about the session; undefined when the portal cannot be reached or its answer is not one. */
async function status(url: string, init: RequestInit): Promise<SessionLeft | SessionOver | undefined> {
  try {
    const answer = await fetch(url, { ...init, headers: { accept: "application/json" } });
    const body = (await answer.json()) as Partial<SessionLeft & SessionOver> | null;
    const { idleSeconds, session, ended, detail } = body ?? {};
    if (answer.ok && typeof idleSeconds === "number" && Number.isFinite(idleSeconds))
      return { idleSeconds, session: String(session) };
    if (answer.status === 401 && typeof ended === "string") return { ended, detail: String(detail ?? "") };
  } catch {
    // unreachable, or not JSON: unknown
  }
  return undefined;
}
