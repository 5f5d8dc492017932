// The idle warning of the expired-password step that follows the code on the sign-in page (or on /mfa before the code):
// that page was loaded before the session was signed in, so it carries neither the warning, nor its rules, nor its
// script. The step brings all three once the code has passed: a new password being typed is kept past the idle limit
// as on any signed-in page, and the step says so in place if the session ends.
import { useEffect, useRef, useState } from "react";
import { IdleWarning, idleWarningStyle } from "#web/components/idle-warning.tsx";

/**
 * The page's own nonce: its policy admits a style element that carries it (the page writes the same nonce on its
 * scripts and styles: server/render/page-reply.ts). A script's nonce is readable from script alone.
 */
const pageNonce = () => document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "";

export function SignInIdleWarning() {
  const box = useRef<HTMLDivElement>(null);
  const [nonce] = useState(pageNonce);
  useEffect(() => {
    // Its own chunk, fetched once the step shows; the session that answers its first ask is the step's.
    void import("#web/client/session-watch.ts").then(({ watchSession }) => {
      const warning = box.current?.querySelector<HTMLElement>(".idle-warning");
      if (warning) watchSession(warning, {});
    });
  }, []);
  return (
    <div ref={box}>
      <style nonce={nonce}>{idleWarningStyle()}</style>
      <IdleWarning path="/" />
    </div>
  );
}
