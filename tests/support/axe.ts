// Accessibility checks for the browser tests: axe-core's WCAG 2.0 and 2.1 level A and AA rules, run inside the page.
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";

/** The rule sets a screen must pass: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export type ColorScheme = "light" | "dark";
export const COLOR_SCHEMES: readonly ColorScheme[] = ["light", "dark"];

/** One broken rule, with the elements that break it, as a line a failing test can show. */
export type Violation = { rule: string; impact: string; help: string; targets: string[]; summary: string };

/**
 * Waits for running transitions (a colour-scheme switch fades Pico's colours), so contrast is measured on the colours
 * that stay. Animations are not waited for: some run for minutes or forever, like the busy spinner.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const transitions = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
    await Promise.all(transitions.map((transition) => transition.finished.catch(() => undefined)));
  });
}

/**
 * The violations of the page as it is now. axe's source is evaluated through the debugging protocol, not added as a
 * script tag: the portal's Content-Security-Policy admits only its own nonce-bearing scripts, and stays on.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  await settled(page);
  return page.evaluate(async (tags) => {
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const results = await inPage.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
      summary: violation.nodes.map((node) => node.failureSummary ?? "").join("\n"),
    }));
  }, WCAG_TAGS);
}

const explain = ({ rule, impact, help, targets, summary }: Violation) =>
  `${rule} (${impact}): ${help}\n  ${targets.join("\n  ")}\n${summary}`;

/**
 * Checks the screen in light and in dark (the portal follows the system's scheme), then leaves the page in light,
 * and fails with every violation of both, named after the screen. `each` runs after each scheme's check, with that
 * scheme shown (to take a screenshot of it, say).
 */
export async function assertAccessible(
  page: Page,
  screen: string,
  each?: (scheme: ColorScheme) => Promise<void>,
): Promise<void> {
  const reports: string[] = [];
  for (const colorScheme of COLOR_SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const violations = await axeViolations(page);
    if (violations.length > 0) reports.push(`${screen} (${colorScheme}):\n\n${violations.map(explain).join("\n\n")}`);
    await each?.(colorScheme);
  }
  await page.emulateMedia({ colorScheme: "light" });
  assert.deepEqual(reports, [], `no accessibility violations on ${screen}\n\n${reports.join("\n\n")}`);
}
