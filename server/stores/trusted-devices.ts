// Each person's browsers that skip the MFA code ("Browsers that skip the code"): a per-person list of the device ids
// the upstream remembers a passed code for (server/stores/person-lists.ts, the activity's own
// mechanism, in memory or shared through Redis), each trusted for TRUST_MS after its last passed code. The portal sends
// an id upstream only while it is listed here (server/security/device-cookie.ts), so forgetting one asks for a code again.
import { hash } from "node:crypto";
import { storedLabel } from "#server/security/device-label.ts";
import type { ListKind, PersonLists } from "#server/stores/person-lists.ts";
import { DEVICE_TRUST_DAYS } from "#web/protocol/headers.ts";

/** How long a browser skips the code after its last passed code, as the MFA step says it. */
export const TRUST_MS = DEVICE_TRUST_DAYS * 24 * 3600_000;
/** Trusted browsers kept per person: past this the oldest is forgotten. */
export const TRUSTED_PER_PERSON = 20;
/** People whose devices are kept per process; the least recently trusted go first. */
export const DEVICES_PEOPLE_MAX = 50_000;

/** What is kept of a trusted browser: never its device id, only the id's digest as the list's key. */
export type TrustedDevice = { first: number; last: number; device: string; address: string };
export type ListedDevice = TrustedDevice & { id: string };

/** A device id as the list and the page name it: a digest, which cannot be sent upstream in its place. */
export const deviceDigest = (deviceId: string): string =>
  hash("sha256", `device\n${deviceId}`, "base64url").slice(0, 22);

export const trustedDeviceKind: ListKind<TrustedDevice> = {
  name: "devices",
  perPerson: TRUSTED_PER_PERSON,
  peopleMax: DEVICES_PEOPLE_MAX,
  keepMs: TRUST_MS,
  timeOf: (device) => device.last,
  parse: parseDevice,
};

/** A person is `personKey(site, company, user)`. Never rejects. */
export class TrustedDevices {
  constructor(private readonly lists: PersonLists<TrustedDevice>) {}

  /** Newest trust first; `complete` is false when Redis could not answer. */
  async list(person: string): Promise<{ devices: ListedDevice[]; complete: boolean }> {
    const { items, complete } = await this.lists.list(person);
    return { devices: items.map(({ id, item }) => ({ id, ...item })), complete };
  }

  /** Whether the browser of this device id skips the code for the person now. */
  async trusts(person: string, deviceId: string): Promise<boolean> {
    const id = deviceDigest(deviceId);
    return (await this.list(person)).devices.some((device) => device.id === id);
  }

  /** A code passed from this browser at `at`: trusted for TRUST_MS from now, first trusted kept. */
  async trust(person: string, deviceId: string, seen: { device: string; address: string }, at: number): Promise<void> {
    const id = deviceDigest(deviceId);
    const known = (await this.list(person)).devices.find((device) => device.id === id);
    await this.lists.add(person, id, { first: known?.first ?? at, last: at, ...seen });
  }

  /** Forgets one listed browser (by its digest), or every one of the person's. */
  async forget(person: string, which: { id: string } | "all"): Promise<void> {
    const ids = which === "all" ? (await this.list(person)).devices.map((device) => device.id) : [which.id];
    await Promise.all(ids.map((id) => this.lists.remove(person, id)));
  }
}

function parseDevice(stored: unknown): TrustedDevice | undefined {
  const { first, last, device, address } = (stored ?? {}) as Partial<TrustedDevice>;
  if (typeof first !== "number" || typeof last !== "number" || typeof device !== "string") return undefined;
  return { first, last, device: storedLabel(device), address: typeof address === "string" ? address : "" };
}
