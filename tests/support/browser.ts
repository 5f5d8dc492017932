// Debian's chromium (its headless shell) driven by playwright-core (never a browser download), and screenshots.
import { mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

export const SCREENSHOTS = new URL("../../artifacts/screenshots/", import.meta.url).pathname;

/**
 * Debian's headless shell of chromium (the same engine without the browser's own layers: about half the CPU a page
 * costs in chromium's new headless mode), installed beside chromium by scripts/ensure-packages.sh.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? HEADLESS_SHELL,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** Where the README's screenshots are taken; scripts/readme-screenshots.ts copies them into docs/screenshots/. */
export const README_SCREENSHOTS = `${SCREENSHOTS}readme/`;

/** A screenshot of the whole page for the README, its animations stopped. */
export async function readmeScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(README_SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${README_SCREENSHOTS}${name}.png`, fullPage: true, animations: "disabled" });
}
