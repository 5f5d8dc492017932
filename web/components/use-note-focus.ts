// Moves the focus to the newest note once React has drawn it: a message shown after an answer is read first, and
// scrolled into view. Asked for before the render, done after its commit (an animation frame can come first).
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

export function useNoteFocus(): [RefObject<HTMLDivElement | null>, () => void] {
  const notes = useRef<HTMLDivElement>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked > 0) notes.current?.querySelector<HTMLElement>(".note")?.focus();
  }, [asked]);
  return [notes, useCallback(() => setAsked((count) => count + 1), [])];
}
