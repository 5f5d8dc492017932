// The sandbox's outgoing e-mail: kept in the database for the mailbox page and tests; never written to the console.
import { z } from "zod";
import type { SandboxDb } from "#sandbox/db.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  body: string;
}

export interface StoredMail extends OutgoingMail {
  id: number;
  /** ISO 8601 time the sandbox "sent" it (by its clock, which tests may fake). */
  sentAt: string;
}

/** The mailbox shows this many, newest first: enough to find a code, never a page that grows without end. */
export const MAILS_SHOWN = 50;
/** And keeps this many: older mails go as new ones come, so no flood of requests fills the disk. */
export const MAILS_KEPT = 500;

export interface Mailbox {
  send(mail: OutgoingMail): StoredMail;
  /** The newest MAILS_SHOWN, newest first; only mails to `to` (case-insensitive) when given. */
  list(to?: string): StoredMail[];
}

const mailRow = z.object({
  id: z.number(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  sent_at: z.number(),
});

function toMail(row: unknown): StoredMail {
  const mail = mailRow.parse(row);
  return {
    id: mail.id,
    to: mail.recipient,
    subject: mail.subject,
    body: mail.body,
    sentAt: new Date(mail.sent_at).toISOString(),
  };
}

/**
 * `onSent` hears of each mail (development announces it, without its body: codes, passwords and links stay in the
 * mailbox page).
 */
export function createMailbox(db: SandboxDb, now: () => number, onSent?: (mail: StoredMail) => void): Mailbox {
  return {
    send(mail) {
      const sentAt = now();
      const result = db
        .prepare("INSERT INTO mails (recipient, subject, body, sent_at) VALUES (?, ?, ?, ?)")
        .run(mail.to, mail.subject, mail.body, sentAt);
      db.prepare("DELETE FROM mails WHERE id <= ?").run(Number(result.lastInsertRowid) - MAILS_KEPT);
      const stored: StoredMail = {
        ...mail,
        id: Number(result.lastInsertRowid),
        sentAt: new Date(sentAt).toISOString(),
      };
      onSent?.(stored);
      return stored;
    },
    list(to) {
      const rows =
        to === undefined
          ? db.prepare("SELECT * FROM mails ORDER BY sent_at DESC, id DESC LIMIT ?").all(MAILS_SHOWN)
          : db
              .prepare("SELECT * FROM mails WHERE recipient = ? ORDER BY sent_at DESC, id DESC LIMIT ?")
              .all(to, MAILS_SHOWN);
      return rows.map(toMail);
    },
  };
}
