// A name the upstream or a link gave (a user, a company) set apart from the words around it, so that its own
// direction marks (a right-to-left override) never reorder them: the one place that does it, for every page.
import { Fragment } from "react";

const FIRST_STRONG_ISOLATE = "\u2068";
const POP_DIRECTIONAL_ISOLATE = "\u2069";
/** The isolate marks themselves: a name holding one could end its isolation early, or swallow the text after it. */
const ISOLATE_MARKS = /[\u2066-\u2069]/g;
const ISOLATED = /\u2068([^\u2069]*)\u2069/;

/**
 * The name between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for plain text (a title, an attribute, a sentence
 * of a texts module); an empty name stays empty, so a text can still tell a name from none.
 */
export const isolate = (name: string): string =>
  name ? `${FIRST_STRONG_ISOLATE}${name.replace(ISOLATE_MARKS, "")}${POP_DIRECTIONAL_ISOLATE}` : "";

/** A text in markup, each name `isolate` set apart in it drawn as a `<bdi>`: `<Isolated text={isolate(name)} />`. */
export function Isolated({ text }: { text: string }) {
  const parts = text.split(ISOLATED);
  return (
    <>
      {parts.map((part, i) =>
        // split's odd parts are what the pattern captured: the names.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
        i % 2 === 1 ? <bdi key={i}>{part}</bdi> : part ? <Fragment key={i}>{part}</Fragment> : null,
      )}
    </>
  );
}
