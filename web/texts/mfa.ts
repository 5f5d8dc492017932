// Texts of the multi-factor step (SPEC.md 2.4, 4.2).
export const mfaTexts = {
  heading: "Verify This Device",
  sent: "A code has been sent to the email registered to this account. Please enter the code below to verify this device.",
  sendAgainNote: 'If you do not receive an email within a few minutes, click "Send Again" to receive a new one.',
  codeLabel: "Code",
  submit: "Submit Code",
  sendAgain: "Send Again",
  sendAgainIn: (seconds: number) => `Send Again (${seconds}s)`,
  incorrect: "Incorrect. Please try again with the most recent code.",
  passwordExpired: "Your password has expired. Please enter a new password",
  verifying: "Verifying...",
  backToLogin: "Go to the login page",
} as const;
