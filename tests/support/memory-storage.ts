// The part of the Web Storage API the browser's state modules use, over a Map, for unit tests without a browser.

/** `entries` shows the keys and values as the browser would keep them. */
export class MemoryStorage {
  readonly entries = new Map<string, string>();
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, String(value));
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
}
