// Counted words by the language's plural rules ("1 minute", "2 minutes"), for every text that says a number.
const rules = new Intl.PluralRules("en");

/** The count with its word in the form the plural rules choose: `counted(2, "minute", "minutes")` is "2 minutes". */
export const counted = (count: number, one: string, other: string): string =>
  `${count} ${rules.select(count) === "one" ? one : other}`;
