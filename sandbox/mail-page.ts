// The sandbox-only HTML mailbox page, where a developer reads the codes and links it "sent".
import { escapeHtml, htmlDocument } from "#sandbox/html.ts";
import { MAILS_SHOWN, type StoredMail } from "#sandbox/mailbox.ts";
import type { SeedAccount } from "#sandbox/seed.ts";

export type LinkNotice = "sent" | "unknown" | "throttled" | undefined;

export interface MailPageInput {
  mails: readonly StoredMail[];
  accounts: readonly SeedAccount[];
  seedPassword: string;
  notice: LinkNotice;
  /** The recipient the list is filtered to, if any. */
  to?: string | undefined;
}

// Runs on already escaped text, where a URL cannot contain a raw quote or angle bracket.
function linkify(escaped: string): string {
  return escaped.replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

function noticeHtml(notice: LinkNotice): string {
  if (notice === "sent") return '<p role="status">A sign-in link was e-mailed: it is the newest message below.</p>';
  if (notice === "unknown")
    return '<p role="status">No sandbox user has that site, company and user ID; nothing was sent.</p>';
  if (notice === "throttled")
    return '<p role="status">Enough sign-in links went to that user lately; nothing was sent. Use one below, or wait a few minutes.</p>';
  return "";
}

/** A mail's time as a short line that does not wrap on a phone: "2026-03-02 09:00:05 UTC". */
export function sentAtText(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The list's heading: how many are shown, and that older ones are hidden once the list is full. */
function messagesHeading(shown: number): string {
  return shown < MAILS_SHOWN ? `Messages (${shown})` : `Messages (the newest ${shown}; older ones are not shown)`;
}

function mailHtml(mail: StoredMail): string {
  return `<article aria-labelledby="mail-${mail.id}">
  <h3 id="mail-${mail.id}">${escapeHtml(mail.subject)}</h3>
  <dl>
    <dt>To</dt><dd>${escapeHtml(mail.to)}</dd>
    <dt>Sent</dt><dd><time datetime="${escapeHtml(mail.sentAt)}">${escapeHtml(sentAtText(mail.sentAt))}</time></dd>
  </dl>
  <pre>${linkify(escapeHtml(mail.body))}</pre>
</article>`;
}

function accountRow(account: SeedAccount): string {
  const cells = [
    account.site,
    account.shortname ?? "-",
    account.username,
    account.email,
    account.loginMessage,
    account.purpose,
  ];
  return `<tr>${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`;
}

/** Each value once, in the seed's order: a datalist of the user IDs or the companies. */
const options = (values: readonly (string | undefined)[]) =>
  [...new Set(values.filter((value) => value !== undefined))]
    .map((value) => `<option value="${escapeHtml(value)}"></option>`)
    .join("");

export function renderMailPage(input: MailPageInput): string {
  const mails = input.mails.length === 0 ? "<p>No mail yet.</p>" : input.mails.map(mailHtml).join("\n");
  return htmlDocument(
    "Sandbox mailbox",
    `<h1>Sandbox mailbox</h1>
<p>This is the mailbox of the portal's sandbox upstream, which stands in for the payments provider's API
when no real one is configured. The sandbox sends no real e-mail: every message it would send
(verification codes, password-reset links, sign-in links) is kept here, newest first, and never printed on its console.
<a href="/sandbox/mail">Reload this page</a> to see new mail.</p>
${noticeHtml(input.notice)}
<section aria-labelledby="link-heading">
<h2 id="link-heading">E-mail a sign-in link</h2>
<form method="post" action="/sandbox/mail/link">
  <label for="link-site">Site
    <select id="link-site" name="site"><option value="client">Client</option><option value="vendor">Vendor</option></select>
  </label>
  <label for="link-shortname">Company Short Name
    <input id="link-shortname" name="shortname" list="seed-companies" autocomplete="off" aria-describedby="link-shortname-hint">
    <small id="link-shortname-hint">A client's company; a vendor has none.</small>
  </label>
  <datalist id="seed-companies">${options(input.accounts.map((account) => account.shortname))}</datalist>
  <label for="link-username">User ID
    <input id="link-username" name="username" list="seed-usernames" required autocomplete="off">
  </label>
  <datalist id="seed-usernames">${options(input.accounts.map((account) => account.username))}</datalist>
  <button type="submit">Send sign-in link</button>
</form>
</section>
<section aria-labelledby="mail-heading">
<h2 id="mail-heading">${escapeHtml(messagesHeading(input.mails.length))}${input.to === undefined ? "" : ` to ${escapeHtml(input.to)}`}</h2>
<form method="get" action="/sandbox/mail">
  <label for="mail-to">Show only mail to
    <input id="mail-to" name="to" type="email" value="${escapeHtml(input.to ?? "")}" autocomplete="off">
  </label>
  <button type="submit">Show</button>
</form>
${mails}
</section>
<section aria-labelledby="accounts-heading">
<h2 id="accounts-heading">Seed accounts</h2>
<p>Every seed account's password is <code>${escapeHtml(input.seedPassword)}</code> until it is changed or reset.</p>
<div class="table-scroll" role="region" aria-labelledby="accounts-heading" tabindex="0">
<table>
<thead><tr><th scope="col">Site</th><th scope="col">Company</th><th scope="col">User ID</th><th scope="col">E-mail</th><th scope="col">Login message when seeded</th><th scope="col">Purpose</th></tr></thead>
<tbody>
${input.accounts.map(accountRow).join("\n")}
</tbody>
</table>
</div>
</section>`,
  );
}
