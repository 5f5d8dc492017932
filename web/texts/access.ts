// Texts of the forbidden, not-found and permission-check states (SPEC.md 2.12, 4.7).
export const accessTexts = {
  forbiddenHeading: "You Do Not Have Access To That Page",
  forbiddenAdvice: "Please contact your acccount administrator.",
  notFoundHeading: "The Page You Requested Could Not Be Found",
  notFoundAdvice: "Please check the URL and try again.",
  contact: (email: string) => `If you believe this to be an error, please contact us at ${email}`,
  checking: "Checking User Permissions...",
} as const;
