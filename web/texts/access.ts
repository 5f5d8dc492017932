// Texts of the forbidden, not-found and permission-check states (requirements 2.12, 4.7).
const contactWords = "If you believe this to be an error, please contact us at ";

export const accessTexts = {
  forbiddenHeading: "You Do Not Have Access To That Page",
  forbiddenAdvice: "Please contact your acccount administrator.",
  notFoundHeading: "The Page You Requested Could Not Be Found",
  notFoundAdvice: "Please check the URL and try again.",
  /** The contact line's words before the address, so the address can be a mailto: link. */
  contactWords,
  checking: "Checking User Permissions...",
  /** Below section 8's "Action Failed", when a gated page's permissions could not be had (docs/decisions.md). */
  unchecked: "Your permissions for this page could not be checked.",
  tryAgain: "Try again",
  /** Below section 8's "Access Denied", on the page a form another site's page posted is answered with. */
  crossSiteForm:
    "This form was sent from another site, so the portal did not act on it and nothing was changed. From the sign-in page you can sign in, or go on to your pages if you are signed in.",
} as const;
