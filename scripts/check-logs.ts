// After a full test run: no log line of any portal the tests started holds a password, code, token or cookie.
import { readdirSync, readFileSync } from "node:fs";

const dir = new URL("../artifacts/logs/", import.meta.url);
const forbidden: [string, RegExp][] = [
  ["a demo password", /Portal-Demo-2026!/],
  ["a bearer token", /Bearer\s+\S/i],
  ["a token field", /"token"\s*:\s*"[^"[]/],
  ["a session cookie", /portal-session=[^;"\s]{8,}/],
  ["an MFA code in a path", /\/mfa\/validate\/\d/],
  ["an MFA code in an encoded path", /\/mfa\/[^/"]*%[0-9a-f]{2}[^/"]*\/\d/i],
  ["a password field", /"password"\s*:\s*"[^"[]/],
  ["a link-login uuid", /[?&]uuid=[^&\s"]/],
  ["a password-reset token", /[?&]token=[^&\s"]/],
];

let lines = 0;
const problems: string[] = [];
for (const file of readdirSync(dir).filter((name) => name.endsWith(".log"))) {
  for (const line of readFileSync(new URL(file, dir), "utf8").split("\n")) {
    if (!line) continue;
    lines += 1;
    for (const [what, pattern] of forbidden)
      if (pattern.test(line)) problems.push(`${file}: ${what}: ${line.slice(0, 200)}`);
  }
}
if (lines === 0) {
  console.error("check-logs: no logs found; run the tests first");
  process.exit(1);
}
if (problems.length > 0) {
  console.error(`check-logs: ${problems.length} secret(s) in the logs:\n${problems.slice(0, 20).join("\n")}`);
  process.exit(1);
}
console.log(`check-logs: ${lines} log lines, no password, code, token or cookie`);
