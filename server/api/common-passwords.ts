// Refuses the passwords attackers try first: zxcvbn's estimate over its list of common and breached passwords and
// its patterns (keyboard walks, years, l33t spellings). Server-side only, so the browser never downloads the list.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/** zxcvbn's score 3: about 10^8 guesses or more, out of reach of guessing online; below it is refused. */
const LEAST_SCORE = 3;
/**
 * Only this many leading characters of the password, and of each known word, are estimated: the estimate's cost grows
 * fast with length (64 characters cost up to a few hundred milliseconds of the event loop, 24 a few), and a password
 * whose first 24 characters are hard to guess is not easily guessed.
 */
export const ESTIMATED_LENGTH = 24;

let estimator: ZxcvbnFactory | undefined;

/** Whether a password is among the easily guessed, its user's own name and company counting as known words. */
export function easilyGuessed(password: string, knownWords: readonly string[]): boolean {
  // Built on first use: ranking the word lists takes a moment that a start need not wait for.
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: ESTIMATED_LENGTH });
  const words = knownWords.filter(Boolean).map((word) => word.slice(0, ESTIMATED_LENGTH));
  return estimator.check(password.slice(0, ESTIMATED_LENGTH), words).score < LEAST_SCORE;
}
