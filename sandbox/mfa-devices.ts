// Device memory (requirements 4.2): the code a user passed last on a device, kept per device id the portal sends, so
// that it passes again silently from that device only. The id is kept as its SHA-256, as tokens are.
import type { SandboxDb } from "#sandbox/db.ts";
import { hashToken, secretsEqual } from "#sandbox/passwords.ts";

/** The devices a user's memory keeps at most: past this, the one that passed longest ago is forgotten. */
export const MAX_DEVICES_PER_USER = 20;

/** The X-Device-Id header openapi/portal.yaml declares: the portal's random id, bounded in length and alphabet. */
export const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** Whether `code` is the code the user passed last on this device. */
export function passedOnDevice(db: SandboxDb, userId: number, deviceId: string, code: string): boolean {
  const row = db
    .prepare("SELECT code FROM mfa_devices WHERE user_id = ? AND device_hash = ?")
    .get(userId, hashToken(deviceId));
  return typeof row?.code === "string" && secretsEqual(row.code, code);
}

/** The device passed `code` for the user: it is the one the device presents silently from now on. */
export function rememberOnDevice(db: SandboxDb, userId: number, deviceId: string, code: string, now: number): void {
  db.prepare(
    `INSERT INTO mfa_devices (user_id, device_hash, code, accepted_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, device_hash) DO UPDATE SET code = excluded.code, accepted_at = excluded.accepted_at`,
  ).run(userId, hashToken(deviceId), code, now);
  db.prepare(
    `DELETE FROM mfa_devices WHERE user_id = ? AND device_hash NOT IN
       (SELECT device_hash FROM mfa_devices WHERE user_id = ? ORDER BY accepted_at DESC LIMIT ?)`,
  ).run(userId, userId, MAX_DEVICES_PER_USER);
}
