// Refuses the passwords attackers try first: zxcvbn's estimate over its list of common and breached passwords and
// its patterns (keyboard walks, years, l33t spellings). Server-side only, so the browser never downloads the list.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/** zxcvbn's score 3: about 10^8 guesses or more, out of reach of guessing online; below it is refused. */
const LEAST_SCORE = 3;
/**
 * Only this many leading characters are estimated: the lists hold no longer password, and the estimate's cost grows
 * fast with length (a 256-character one costs hundreds of times a 12-character one).
 */
const ESTIMATED_LENGTH = 64;

let estimator: ZxcvbnFactory | undefined;

/** Whether a password is among the easily guessed, its user's own name and company counting as known words. */
export function easilyGuessed(password: string, knownWords: readonly string[]): boolean {
  // Built on first use: ranking the word lists takes a moment that a start need not wait for.
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: ESTIMATED_LENGTH });
  return estimator.check(password, knownWords.filter(Boolean)).score < LEAST_SCORE;
}
