// The upstream token as the session cookie keeps it: a large (JWT-like) token is stored compressed, so the cookie fits.

import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { LRUCache } from "lru-cache";

/** Shorter tokens are kept as they are: compressing them saves nothing worth the work. */
export const PACK_FROM_CHARACTERS = 512;

/** The token itself, or its packed form (base64 of brotli of its binary form). */
export type StoredToken = { token: string } | { packedToken: string };

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const TEXT = 0;
const SEGMENTS = 1;

/**
 * A JWT's (or any dot-separated base64url token's) segments decoded to bytes, each prefixed by its length: the JSON
 * inside them then compresses well. Anything that would not come back byte for byte is kept as text.
 */
function toBinary(token: string): Buffer {
  const segments = token.split(".");
  const decoded = segments.map((segment) => Buffer.from(segment, "base64url"));
  const exact = segments.every(
    (segment, i) => BASE64URL.test(segment) && decoded[i]?.toString("base64url") === segment && segment.length < 80_000,
  );
  if (!exact || segments.length > 255) return Buffer.concat([Buffer.from([TEXT]), Buffer.from(token, "utf8")]);
  const parts = [Buffer.from([SEGMENTS])];
  for (const bytes of decoded) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

function fromBinary(binary: Buffer): string | undefined {
  if (binary[0] === TEXT) return binary.subarray(1).toString("utf8");
  if (binary[0] !== SEGMENTS) return undefined;
  const segments: string[] = [];
  for (let at = 1; at < binary.length; ) {
    if (at + 2 > binary.length) return undefined;
    const length = binary.readUInt16BE(at);
    segments.push(binary.subarray(at + 2, at + 2 + length).toString("base64url"));
    at += 2 + length;
  }
  return segments.join(".");
}

export function packToken(token: string): StoredToken {
  if (token.length < PACK_FROM_CHARACTERS) return { token };
  const binary = toBinary(token);
  const packed = brotliCompressSync(binary, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: binary.length },
  }).toString("base64");
  return packed.length < token.length ? { packedToken: packed } : { token };
}

/** Tokens unpacked lately, by packed form: a signed-in user's every request would otherwise decompress it again. */
export const MAX_REMEMBERED_TOKENS = 2_000;
const recentlyUnpacked = new LRUCache<string, string>({ max: MAX_REMEMBERED_TOKENS });

/** The token back, or undefined when the stored form cannot be read (the session then holds no token). */
export function unpackToken(stored: StoredToken): string | undefined {
  if ("token" in stored) return typeof stored.token === "string" ? stored.token : undefined;
  const remembered = recentlyUnpacked.get(stored.packedToken);
  if (remembered !== undefined) return remembered;
  let token: string | undefined;
  try {
    // Never more than a token the portal would have packed: a larger one is not decompressed at all.
    token = fromBinary(brotliDecompressSync(Buffer.from(stored.packedToken, "base64"), { maxOutputLength: 64 * 1024 }));
  } catch {
    return undefined;
  }
  if (token === undefined) return undefined;
  recentlyUnpacked.set(stored.packedToken, token);
  return token;
}
