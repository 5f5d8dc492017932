// What the browser tests share: the running portal and sandbox, chromium, mail, screenshots.

export { DEMO_PASSWORD, latestCode, latestMail } from "#scripts/sign-in.ts";
export { launchBrowser, readmeScreenshot, screenshot } from "#tests/support/browser.ts";
export { sandboxPost, startPortal } from "#tests/support/portal.ts";
