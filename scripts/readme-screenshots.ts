// Copies the README's screenshots, taken by tests/browser/accessibility.test.ts, into docs/screenshots/ (committed).
// Run after that test: `npx tsx scripts/readme-screenshots.ts`; it fails when an image the README shows is missing.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";

const root = new URL("..", import.meta.url).pathname;
/** Where that test's `readmeScreenshot` (tests/support/browser.ts) writes them. */
const README_SCREENSHOTS = `${root}artifacts/screenshots/readme/`;
const target = `${root}docs/screenshots/`;

const taken = existsSync(README_SCREENSHOTS) ? readdirSync(README_SCREENSHOTS).filter((f) => f.endsWith(".png")) : [];
if (taken.length === 0) {
  console.error(`No screenshots in ${README_SCREENSHOTS}: run tests/browser/accessibility.test.ts first.`);
  process.exit(1);
}

mkdirSync(target, { recursive: true });
for (const file of taken.sort()) {
  copyFileSync(`${README_SCREENSHOTS}${file}`, `${target}${file}`);
  console.log(`docs/screenshots/${file}  ${Math.round(statSync(`${target}${file}`).size / 1024)} KiB`);
}

const shown = [...readFileSync(`${root}README.md`, "utf8").matchAll(/docs\/screenshots\/([\w-]+\.png)/g)].map(
  (match) => match[1] ?? "",
);
const missing = [...new Set(shown)].filter((file) => !existsSync(`${target}${file}`));
if (missing.length > 0) {
  console.error(`The README shows screenshots that were not taken: ${missing.join(", ")}`);
  process.exit(1);
}
console.log(`${taken.length} screenshots copied; the README's ${new Set(shown).size} are all there.`);
