// Refuses the passwords attackers try first (ASVS 5.0 V6.2.4 and V6.2.11): a new password whose base word, once its
// case, the digits and symbols around it, a repetition and l33t spellings are undone, is one of the 10,000 most
// common and breached passwords (common-passwords.json), or whose letters are one's give or take two at an end
// (`Pass-word-123!a`), or that contains its user's own ID or company. Server-side
// only (the change call and the sandbox's reset form), so the browser never downloads the list.
import list from "#server/actions/common-passwords.json" with { type: "json" };

/** Digits and symbols spelled for the letters they stand for: `P@ssw0rd` is `password`. */
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/** A known word shorter than this (a user ID of two letters) would refuse too many passwords to say anything. */
const LEAST_KNOWN_WORD = 3;

/** One period of a repetition (`abcabc` is `abc`), or the whole. */
function onePeriod(text: string): string {
  for (let length = 1; length <= text.length / 2; length++)
    if (text.slice(length) === text.slice(0, -length)) return text.slice(0, length);
  return text;
}

const bare = (text: string) => text.replace(/^[^a-z]+|[^a-z]+$/g, "");
const readLeet = (text: string) => [...text].map((character) => LEET[character] ?? character).join("");

/**
 * What a password is made of, as the list is kept: lowercased, one period of a repetition, without the digits and
 * symbols before and after its letters, l33t spellings read as letters (`P@ssw0rd1234!` is `password`); and the same
 * read as l33t before its edges are cut (`$unshine!!` is `sunshine`).
 */
const baseWords = (password: string) => {
  const core = onePeriod(password.toLowerCase());
  return [readLeet(bare(core)), bare(readLeet(core))];
};

const common = new Set<string>(list);

/**
 * A common password's letters alone, read through l33t or not: `Pass-word-123!a` is `password` with a letter added. A
 * form with fewer letters than this (`123456a`) would refuse passwords for letters that say nothing.
 */
const LEAST_LETTERS = 5;
/** Letters added at the start or the end of a common password's letters that still leave it the common one. */
const ADDED_LETTERS = 2;
const letters = (text: string) => text.replace(/[^a-z]/g, "");
const lettersOf = (text: string) => [letters(text), letters(readLeet(text))];
const commonLetters = new Set(list.flatMap(lettersOf).filter((form) => form.length >= LEAST_LETTERS));

/** Whether the password's letters (one period of them) are a common password's, give or take a few at either end. */
function commonByLetters(password: string): boolean {
  return lettersOf(password.toLowerCase()).some((form) => {
    const word = onePeriod(form);
    for (let start = 0; start <= ADDED_LETTERS; start++)
      for (let end = 0; start + end <= ADDED_LETTERS; end++) {
        const trimmed = word.slice(start, word.length - end);
        if (trimmed.length >= LEAST_LETTERS && commonLetters.has(trimmed)) return true;
      }
    return false;
  });
}

/**
 * Why a password is easily guessed, if it is: one of the common ones, or built from its user's own ID or company (the
 * known words), which the person is told apart since the checklist cannot show it.
 */
export function guessedAs(password: string, knownWords: readonly string[]): "common" | "personal" | undefined {
  const bases = baseWords(password);
  if (bases.some((base) => common.has(base)) || commonByLetters(password)) return "common";
  const spellings = [password.toLowerCase(), ...bases];
  const personal = knownWords
    .map((word) => word.trim().toLowerCase())
    .some((word) => word.length >= LEAST_KNOWN_WORD && spellings.some((spelling) => spelling.includes(word)));
  return personal ? "personal" : undefined;
}

/** Whether a password is among the easily guessed, its user's own ID and company counting as known words. */
export const easilyGuessed = (password: string, knownWords: readonly string[]): boolean =>
  guessedAs(password, knownWords) !== undefined;
