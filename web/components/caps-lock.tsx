// The caps-lock hint of a password field: shown while Caps Lock is on, in the login and change-password forms alike.
import { type KeyboardEvent, useState } from "react";
import { fieldTexts } from "#web/texts/fields.ts";

/** Whether Caps Lock is on, as the last key pressed in a field said; `onKey` goes on the fields' key events. */
export function useCapsLock(): { capsLock: boolean; onKey: (event: KeyboardEvent<HTMLInputElement>) => void } {
  const [capsLock, setCapsLock] = useState(false);
  return { capsLock, onKey: (event) => setCapsLock(event.getModifierState("CapsLock")) };
}

export function CapsLockHint({ on }: { on: boolean }) {
  return on ? (
    <p className="caps-lock" role="status">
      {fieldTexts.capsLock}
    </p>
  ) : null;
}
