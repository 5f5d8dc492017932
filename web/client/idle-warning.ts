// What the idle warning (web/components/idle-warning.tsx) gains where scripts run: a countdown, "Stay signed in"
// without leaving the page (nothing typed is lost), dismissal by its button or Escape, and room below the field being
// typed in. It takes over the timing from the CSS delay and the <noscript> refresh. The server's clock decides: before
// the warning shows, the page asks it how long is left (a form sent or another tab's page restarts it), and the tabs
// of the browser tell each other of a page loaded, a "Stay signed in" and a sign-out.
// Its words are in the page (web/texts/layout.ts): this script writes only the time, so it carries no texts module.
import { IDLE_CHECK_MARGIN_SECONDS, IDLE_WARNING_SECONDS, idleCheckUrl } from "#web/idle-timing.ts";

/** The answer of /session/stay and /session/idle to a script: the seconds left before the idle limit. */
type IdleLeft = { idleSeconds: number };
/** What one tab tells the others: the server's time left, or that the person signed out. */
type TabNews = IdleLeft | { signedOut: true };

/** Where a tab goes when the person signed out in another: the sign-in page, which says so. */
const SIGNED_OUT_URL = "/?signed-out";

const warning = document.querySelector<HTMLElement>(".idle-warning");
const checkIn = Number(document.body.dataset.idleCheck);
if (warning && Number.isFinite(checkIn)) keep(warning, checkIn);

function keep(warning: HTMLElement, checkIn: number): void {
  const countdown = warning.querySelector<HTMLElement>(".idle-countdown");
  const seconds = warning.querySelector<HTMLElement>(".idle-seconds");
  const stay = warning.querySelector<HTMLFormElement>("form.idle-stay");
  const dismiss = warning.querySelector<HTMLButtonElement>(".idle-dismiss");
  const path = `${location.pathname}${location.search}`;
  const tabs = "BroadcastChannel" in window ? new BroadcastChannel("idle-warning") : undefined;
  let limit = Date.now() + (checkIn - IDLE_CHECK_MARGIN_SECONDS) * 1000;
  let dismissed = false;
  let confirmed = false; // the server has said the warning is due
  let before: HTMLElement | null = null; // what had the focus before the warning took it

  warning.style.animation = "none";
  if (dismiss) dismiss.hidden = false;

  const shown = () => warning.style.visibility === "visible";
  /** A field the warning would cover (on a phone, it spans the screen's width) scrolls up above it. */
  const uncover = (field: Element | null) => {
    if (!shown() || !(field instanceof HTMLElement) || warning.contains(field)) return;
    const covered = field.getBoundingClientRect().bottom > warning.getBoundingClientRect().top;
    if (covered) field.scrollIntoView({ block: "center" });
  };
  const show = (on: boolean) => {
    if (on === shown()) return;
    warning.style.visibility = on ? "visible" : "hidden";
    // Room below the page's content, so that its last field too can scroll up above the warning.
    document.body.style.paddingBottom = on ? `${warning.offsetHeight + 32}px` : "";
    uncover(document.activeElement);
    // A keyboard reaches "Stay signed in" at once, unless the person is typing in a field (kept, and uncovered).
    if (on && !editing(document.activeElement))
      warning.querySelector<HTMLButtonElement>("form.idle-stay button")?.focus();
  };

  const restart = (idleSeconds: number) => {
    limit = Date.now() + idleSeconds * 1000;
    dismissed = false;
    confirmed = false;
    show(false);
    tick();
  };

  /** Asks the server how long is left before showing the warning: it may have been restarted meanwhile. */
  const confirm = async () => {
    const left = await ask(idleCheckUrl(path), { method: "GET" });
    if (!left || left.idleSeconds <= 0) return location.assign(idleCheckUrl(path));
    if (left.idleSeconds > IDLE_WARNING_SECONDS) return restart(left.idleSeconds);
    limit = Date.now() + left.idleSeconds * 1000;
    confirmed = true;
    tick();
  };

  const check = async () => {
    // Another tab may have kept the session: then this page stays as it is.
    const left = await ask(idleCheckUrl(path), { method: "GET" });
    if (left && left.idleSeconds > 0) restart(left.idleSeconds);
    else location.assign(idleCheckUrl(path));
  };

  let timer: number | undefined;
  function tick(): void {
    window.clearTimeout(timer);
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
    // Ended, or the portal unreachable: the form's own way, which shows the sign-in page or the portal's message.
    if (!left) return stay.submit();
    restart(left.idleSeconds);
    tabs?.postMessage(left satisfies TabNews);
    before?.focus();
  });
  for (const signOut of document.querySelectorAll<HTMLFormElement>('form[action="/session/logout"]'))
    signOut.addEventListener("submit", () => tabs?.postMessage({ signedOut: true } satisfies TabNews));

  dismiss?.addEventListener("click", () => {
    dismissed = true;
    show(false);
    before?.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shown()) dismiss?.click();
  });
  // The focus the person leaves behind when they reach for the warning, given back when it goes.
  document.addEventListener("focusin", (event) => {
    if (event.target instanceof HTMLElement && !warning.contains(event.target)) before = event.target;
    uncover(event.target as Element | null);
  });
  tabs?.addEventListener("message", ({ data }: MessageEvent<TabNews>) => {
    if ("signedOut" in data) void signedOutElsewhere();
    else restart(data.idleSeconds);
  });

  /** Told as the other tab's form leaves: once the portal has ended the session, this tab goes too. */
  const signedOutElsewhere = async () => {
    for (let tries = 0; tries < 20; tries += 1) {
      if (!(await ask(idleCheckUrl(path), { method: "GET" }))) return location.assign(SIGNED_OUT_URL);
      await new Promise((resolve) => window.setTimeout(resolve, 250));
    }
  };

  // This page's load restarted the server's clock (or read it, for a load the browser made by itself): the other tabs
  // learn the time left.
  tabs?.postMessage({ idleSeconds: checkIn - IDLE_CHECK_MARGIN_SECONDS } satisfies TabNews);
  tick();
}

/** Whether the focus is in a field being typed in. */
const editing = (element: Element | null) =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement ||
  (element instanceof HTMLElement && element.isContentEditable);

/** Asks the portal for the seconds left; undefined when the session has ended or the answer is not one. */
async function ask(url: string, init: RequestInit): Promise<IdleLeft | undefined> {
  try {
    const answer = await fetch(url, { ...init, headers: { accept: "application/json" } });
    if (!answer.ok) return undefined;
    const left: unknown = await answer.json();
    const seconds = (left as Partial<IdleLeft> | null)?.idleSeconds;
    return typeof seconds === "number" && Number.isFinite(seconds) ? { idleSeconds: seconds } : undefined;
  } catch {
    return undefined;
  }
}
