// What the browser tests share: the running portal and sandbox, chromium, mail, screenshots.

export { launchBrowser, readmeScreenshot, screenshot } from "#tests/support/browser.ts";
export { DEMO_PASSWORD, latestCode, latestMail, sandboxPost, startPortal } from "#tests/support/portal.ts";
