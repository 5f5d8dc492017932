// The change-password page's account sections, live in the page: their result note takes the focus when the page comes
// back from ending sessions, and after a password change they are drawn again from the page as the server has it now.
import { useCallback, useEffect } from "react";
import { focusTaken } from "#web/components/use-early-input.ts";

/** "Where you're signed in": the answer to ending sessions comes back to it (`#sessions`). */
export const SESSIONS_SECTION_ID = "sessions";
/** "Browsers that skip the code": the answer to forgetting one comes back to it (`#devices`). */
export const DEVICES_SECTION_ID = "devices";
/** "Recent security activity". */
export const ACTIVITY_SECTION_ID = "activity";

const sectionIds = [SESSIONS_SECTION_ID, DEVICES_SECTION_ID, ACTIVITY_SECTION_ID];

/**
 * On mount: back at `#sessions` with a note there (the server's one-time record of an end request), the note takes the
 * focus, unless the person is already typing in the form. Returns `refresh`, which replaces the sections with those of
 * the page as the server draws it now: one source of truth for the lists, no second copy of their markup in script.
 */
export function useAccountSections(): () => Promise<void> {
  useEffect(() => {
    const at = window.location.hash.slice(1);
    if (!(at === SESSIONS_SECTION_ID || at === DEVICES_SECTION_ID) || focusTaken()) return;
    document.getElementById(at)?.querySelector<HTMLElement>(".note")?.focus();
  }, []);
  return useCallback(async () => {
    if (!document.getElementById(SESSIONS_SECTION_ID)) return;
    try {
      const answer = await fetch(window.location.pathname, { headers: { accept: "text/html" } });
      if (!answer.ok || answer.redirected) return; // signed out meanwhile: the next navigation says so
      // Only the body is parsed: the head's <style> carries that answer's nonce, which this page's policy would refuse.
      const html = await answer.text();
      const fresh = new DOMParser().parseFromString(html.slice(Math.max(0, html.indexOf("<body"))), "text/html");
      for (const id of sectionIds) {
        const next = fresh.getElementById(id);
        if (next) document.getElementById(id)?.replaceWith(document.importNode(next, true));
      }
    } catch {
      // Offline for a moment: the lists stay as they were until the next load.
    }
  }, []);
}
