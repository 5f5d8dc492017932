// What the browser tests share: the running portal and sandbox, chromium, mail, screenshots.

export { DEMO_PASSWORD, latestCode, latestMail } from "#harness/sign-in.ts";
export { launchBrowser, readmeScreenshot, screenshot } from "#tests/support/browser.ts";
export { sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
