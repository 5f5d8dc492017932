// What the idle warning (web/components/idle-warning.tsx) gains where scripts run: a countdown, "Stay signed in"
// without leaving the page (nothing typed is lost), dismissal by its button or Escape, and room below the field being
// typed in. It takes over the timing from the CSS delay and the <noscript> refresh: the times the server wrote into
// the page hold until "Stay signed in" restarts the clock, here or in another tab of the same browser.
// Its words are in the page (web/texts/layout.ts): this script writes only the time, so it carries no texts module.
import { IDLE_CHECK_MARGIN_SECONDS, IDLE_WARNING_SECONDS, idleCheckUrl } from "#web/idle-timing.ts";

/** The answer of /session/stay and /session/idle to a script: the seconds left before the idle limit. */
type IdleLeft = { idleSeconds: number };

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
  };

  const restart = (idleSeconds: number) => {
    limit = Date.now() + idleSeconds * 1000;
    dismissed = false;
    show(false);
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
    tabs?.postMessage(left);
    before?.focus();
  });

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
  tabs?.addEventListener("message", (event: MessageEvent<IdleLeft>) => restart(event.data.idleSeconds));

  tick();
}

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
