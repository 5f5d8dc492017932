// Texts shared by the password fields of every form (login and change password).
export const fieldTexts = {
  capsLock: "Caps Lock is on.",
} as const;
