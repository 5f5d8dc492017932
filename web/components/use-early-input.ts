// What a person typed before the island woke: the server's form was usable from the start, so its fields may hold
// text (and a box its tick) React did not put there. Read once when the island takes the form over, so nothing typed
// is lost and nothing moves under the person.
import { type RefObject, useLayoutEffect } from "react";

/** Something other than the page itself has the focus (a field being typed in, a link tabbed to). */
export function focusTaken(): boolean {
  const active = typeof document === "undefined" ? null : document.activeElement;
  return active !== null && active !== document.body && active !== document.documentElement;
}

/** The form's named fields as the person left them: text fields' values, and "on"/"" for a checkbox. */
export function earlyValues(root: ParentNode | null | undefined, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const field = root?.querySelector<HTMLInputElement>(`[name="${name}"]`);
    if (!field) continue;
    values[name] = field.type === "checkbox" ? (field.checked ? "on" : "") : field.value;
  }
  return values;
}

/**
 * Once, as the island takes the form over (before the browser paints again): the fields' values the person typed,
 * handed to `keep` when any differs from what the server rendered.
 */
export function useEarlyInput(
  root: RefObject<ParentNode | null>,
  names: readonly string[],
  keep: (typed: Record<string, string>) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the island takes the server's form over.
  useLayoutEffect(() => {
    const typed = earlyValues(root.current, names);
    const changed = names.some((name) => {
      const field = root.current?.querySelector<HTMLInputElement>(`[name="${name}"]`);
      if (!field) return false;
      return field.type === "checkbox" ? field.checked !== field.defaultChecked : field.value !== field.defaultValue;
    });
    if (changed) keep(typed);
  }, []);
}
