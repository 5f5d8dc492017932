// What a sign-in form posted before its script arrived finds in the page the server answers with: the note to show and
// what was typed (never a password or a code), so the island that takes the page over shows the same.

/** The note above a form: an error, a success or a plain notice. */
export type FormNote = { kind: "success" | "error" | "info"; text: string };

/** A login form sent back: its site, why, and the IDs typed. */
export type LoginAnswer = {
  form: "login";
  site: "client" | "vendor";
  note: FormNote;
  typed: { shortName: string; userName: string; remember: boolean };
};
/** The reset panel sent back with what was typed, or its confirmation (`sent`). */
export type ResetAnswer = {
  form: "reset";
  site: "client" | "vendor";
  sent: boolean;
  note?: FormNote;
  typed?: { shortName: string; email: string };
};
/** The MFA step sent back with its note (a refused code, a new code on its way). */
export type MfaAnswer = { form: "mfa"; note: FormNote };
/** The change-password form sent back with its notes (a refused password, or the success and what it ended). */
export type ChangePasswordAnswer = { form: "change-password"; notes: FormNote[] };

/** A sign-in link's page sent back with why the link did not sign in (requirements 2.6's words). */
export type LinkLoginAnswer = { form: "link-login"; note: FormNote };

export type FormAnswer = LoginAnswer | ResetAnswer | MfaAnswer | ChangePasswordAnswer | LinkLoginAnswer;
