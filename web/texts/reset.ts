// Texts of the Password Reset panel (requirements 2.3, 4.3).
export const resetTexts = {
  heading: "Password Reset",
  instruction: (client: boolean) =>
    `Enter the ${client ? "company short name and " : ""}email address associated with your account.`,
  companyShortName: "Company Short Name",
  emailAddress: "Email Address",
  companyRequired: "Company Short Name is required.",
  emailRequired: "Email Address is required.",
  /** Beside requirements 5's "is required." texts: a field longer than the upstream takes (web/protocol/typed-names.ts). */
  companyTooLong: "Company Short Name is too long.",
  emailTooLong: "Email Address is too long.",
  returnToLogin: "Return To Login",
  submit: "Reset Password",
  confirmation:
    "If there is an account associated with the email you've entered, you will receive an email with instructions to reset your password shortly.",
  alert: "Reset Password Email Sent.",
} as const;
