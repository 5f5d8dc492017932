// Who a person is, as the upstream names them: site, company and user ID, compared as the upstream compares its
// identities. The server's stores keyed by a person (server/account/person.ts) and the browser's device key of the MFA
// code (web/site.ts) both fold and join them here, so the two can never disagree on who is who.

/**
 * The upstream matches company short names and user IDs without regard to ASCII case, and no other case: `ALICE` is
 * `alice`, but `Kelvin` spelled with U+212A is not `kelvin` (no Unicode case folding). Surrounding ASCII blanks are
 * dropped too: an upstream that ignores them names the same account, and one that does not never accepts the padded
 * spelling, so no session is filed under it (and a throttle only counts it with the bare one).
 */
export const foldAscii = (text: string) =>
  text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "").replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The key of the person a request names or a session belongs to: its parts folded as above and each escaped, so no
 * choice of company and user ID can spell another pair's key (`a/b` + `c` is not `a` + `b/c`). A lone surrogate, which
 * JSON can carry but no keyboard types and `encodeURIComponent` throws on, is kept as U+FFFD: the key is total.
 */
export const personKey = (...parts: (string | undefined)[]) =>
  parts.map((part) => encodeURIComponent(foldAscii(part ?? "").replace(/\p{Cs}/gu, "\uFFFD"))).join("/");
