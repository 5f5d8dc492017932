// Byte budgets, quick mode (run in CI): for every page of the route table, the JavaScript and the HTML+CSS it
// ships, gzip. Pages without an island ship no JavaScript; the login page's JavaScript stays within 75 KiB and 1.172× the
// React runtime alone (measured here, side by side); the login page's HTML+CSS stays near the first round trip.
import { budgetFailures } from "#scripts/bench/budgets.ts";
import { measurePages, reactRuntimeGzip } from "#scripts/bench/bytes.ts";

const react = await reactRuntimeGzip();
const pages = await measurePages();
console.log(`${"page".padEnd(40)} ${"JS gz".padStart(7)} ${"HTML+CSS".padStart(8)}  islands`);
for (const { path, js, htmlCss, islands } of pages)
  console.log(`${path.padEnd(40)} ${String(js).padStart(7)} ${String(htmlCss).padStart(8)}  ${islands.join(",")}`);
console.log(`React runtime alone: ${react} bytes gzip`);
const failures = budgetFailures(pages, react);
if (failures.length > 0) {
  console.error(`\nBudgets broken:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`\n${pages.length} pages within budget`);
