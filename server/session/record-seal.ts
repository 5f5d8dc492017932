// What the ledger keeps in Redis, sealed with the session key (AES-256-GCM under a key derived for this use alone) and
// bound to where it is kept (`bound`, the additional data: a record's id): sealed with the first key, opened with any
// key of the rotation, as the session cookie is. A seal moved to another id, or changed, opens to nothing.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { RecordSeal } from "#server/stores/ledger-redis.ts";

const derived = (key: Buffer) => Buffer.from(hkdfSync("sha256", key, "", "portal ledger token", 32));

export function recordSeal(sessionKeys: Buffer[]): RecordSeal {
  const keys = sessionKeys.map(derived);
  return {
    seal(text, bound) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keys[0] as Buffer, iv).setAAD(Buffer.from(bound));
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
    },
    open(sealed, bound) {
      const bytes = Buffer.from(sealed, "base64url");
      if (bytes.length < 29) return undefined;
      for (const key of keys) {
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12)).setAAD(Buffer.from(bound));
          decipher.setAuthTag(bytes.subarray(12, 28));
          return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
        } catch {
          // not sealed with this key for this place: the next key
        }
      }
      return undefined;
    },
  };
}
