// CSP nonces of 128 random bits, each used once.
import { pooledRandomBytes } from "#server/random-pool.ts";

export const newNonce = (): string => pooledRandomBytes(16).toString("base64");
