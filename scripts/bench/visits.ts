// The portal's page visits (requirements 4.8) as its /metrics counts them. A round of visits is over when every visit it
// queued has been sent, so that their cost is the round's; one dropped or failed means the round did not pay for it.
import type { VisitState } from "#server/plugins/metrics.ts";

type Counts = Record<VisitState, number>;

/** The portal's /metrics text, as its owner reads it: over HTTP, or injected into an app in the bench's own process. */
export type MetricsReader = () => Promise<string>;

export const metricsOver =
  (portalUrl: string, metricsToken: string): MetricsReader =>
  async () => {
    const answer = await fetch(`${portalUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (!answer.ok) throw new Error(`/metrics answered ${answer.status}`);
    return answer.text();
  };

async function visitCounts(read: MetricsReader): Promise<Counts> {
  const counts: Counts = { queued: 0, sent: 0, failed: 0, dropped: 0 };
  for (const [, state, value] of (await read()).matchAll(/^portal_tracked_visits_total\{state="(\w+)"\} (\d+)$/gm))
    if (state && state in counts) counts[state as VisitState] = Number(value);
  return counts;
}

/** Waits until the portal has sent every visit it has queued; throws if any was dropped or failed. */
export async function visitsSent(portalUrl: string, metricsToken: string): Promise<void> {
  return allVisitsSent(metricsOver(portalUrl, metricsToken));
}

/** The same, the counts read by `read`. */
export async function allVisitsSent(read: MetricsReader): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const { queued, sent, failed, dropped } = await visitCounts(read);
    if (failed + dropped > 0) throw new Error(`${failed} page visits failed and ${dropped} were dropped`);
    if (sent >= queued) return;
    if (performance.now() > deadline) throw new Error(`${queued - sent} page visits still unsent after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
