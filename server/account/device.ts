// A short device label ("Chrome on Windows") from a User-Agent, made by bowser and cut to a safe length and alphabet.
import Bowser from "bowser";

/** A User-Agent longer than this is not parsed: a real one is a few hundred characters. */
const MAX_USER_AGENT = 512;
/** Each part of the label at most this long. */
const MAX_PART = 32;

/** Letters, digits, spaces and a few marks only: no markup, no control characters, nothing a log line could split on. */
const safePart = (text: string): string =>
  text
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N} ._()+-]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_PART);

export const unknownDevice = "Unknown device";

export function deviceLabel(userAgent: string | undefined): string {
  if (!userAgent || userAgent.length > MAX_USER_AGENT) return unknownDevice;
  let browser = "";
  let os = "";
  try {
    const parser = Bowser.getParser(userAgent);
    browser = safePart(parser.getBrowserName());
    os = safePart(parser.getOSName());
  } catch {
    return unknownDevice;
  }
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || unknownDevice;
}
