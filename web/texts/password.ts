// Texts of the change-password form and the password rules (requirements 2.5, 4.4, 5).

export const passwordTexts = {
  heading: "Change Password",
  username: "Username",
  currentPassword: "Current Password",
  /** Checked before requirements 5's rules, so that an empty password is never sent to the test call. */
  currentRequired: "Current Password is required.",
  newPassword: "New Password",
  confirmPassword: "Confirm Password",
  submit: "Change Password",
  tooShort: "Password must be at least 12 characters in length.",
  mismatch: "New and confirm password do not match.",
  weak: "Password does not meet password requirements",
  changed: "Password Successfully Changed!",
  /** Beside the success note while the page waits before it moves on, so the note can be read. */
  continueNow: "Continue now",
  movingOn: "Taking you to your home page in a few seconds.",
  requirementsHeading: "Password requirements",
  requirements: {
    length: "At least 12 characters",
    lower: "At least one lowercase letter (a-z)",
    upper: "At least one uppercase letter (A-Z)",
    digit: "At least one digit (0-9)",
    special: "At least one special character: ! @ # $ % ^ & * ( ) / < > ? | _ + - = , .",
  },
  met: "(met)",
  notMet: "(not met)",
  show: "Show passwords",
} as const;
