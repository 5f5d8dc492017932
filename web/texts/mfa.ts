// Texts of the multi-factor step (requirements 2.4, 4.2).
import { DEVICE_TRUST_DAYS } from "#web/protocol/headers.ts";
import { counted } from "#web/texts/plural.ts";

export const mfaTexts = {
  heading: "Verify This Device",
  sent: "A code has been sent to the email registered to this account. Please enter the code below to verify this device.",
  sendAgainNote: 'If you do not receive an email within a few minutes, click "Send Again" to receive a new one.',
  /**
   * The portal's own line after requirements 2.4's two: which code works. How long a code lasts is the upstream's,
   * and neither the requirements nor its contract say it, so no lifetime is named (docs/decisions.md).
   */
  newestOnly: "Only the code in the newest email works.",
  /** Before the code is typed: what passing it keeps on this browser, and for how long (issue 41). */
  trustNote: `Once the code is accepted, this browser signs you in without a code for ${DEVICE_TRUST_DAYS} days. You can forget it under Security in the menu.`,
  codeLabel: "Code",
  codeRequired: "Code is required.",
  /** A code with letters or other signs is never sent: it could only fail, and use up an attempt. */
  digitsOnly: "The code is made of digits only. Please enter the digits from the email.",
  /** A form sent without its script has no field bound: a longer code could only fail, so it is never sent. */
  tooLong: (digits: number) => `The code has at most ${digits} digits. Please enter the digits from the email.`,
  submit: "Submit Code",
  sendAgain: "Send Again",
  sendAgainIn: (seconds: number) => `Send Again (${seconds}s)`,
  /** "Send Again" posted without script inside the cooldown, which the button could not count down. */
  sendAgainWait: (seconds: number) =>
    `A code was sent moments ago. You can send another in ${counted(seconds, "second", "seconds")}.`,
  /** After "Send Again": the new code is on its way, and only the newest one works. */
  resent: "A new code has been sent. Use the code in the newest email.",
  incorrect: "Incorrect. Please try again with the most recent code.",
  /** Follows "Incorrect..." once a code has failed, when the portal says how many tries the sign-in has left. */
  attemptsLeft: (count: number) => `${counted(count, "attempt", "attempts")} left.`,
  /** A refused code's note: "Incorrect...", then the tries left when the portal says. */
  wrongCode: (left: number | undefined): string =>
    left === undefined ? mfaTexts.incorrect : `${mfaTexts.incorrect} ${mfaTexts.attemptsLeft(left)}`,
  /** The portal ended the sign-in after the last allowed wrong code (answer code "mfa-attempts-exhausted"). */
  attemptsExhausted:
    "Too many incorrect codes were entered, so this sign-in was stopped to protect the account. Please sign in again to receive a new code.",
  passwordExpired: "Your password has expired. Please enter a new password",
  verifying: "Verifying...",
  signInAgain: "Sign in again",
  useAnotherAccount: "Use another account",
  /** Under Current Password when the page was loaded again: the password typed at sign-in is never stored. */
  currentPasswordAgain: "For your security, the password you signed in with is not kept. Please enter it again.",
} as const;
