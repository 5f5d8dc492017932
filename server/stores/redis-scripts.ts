// The Lua scripts the shared stores run: each is one atomic step in Redis, never a read followed by a write.
import type { Redis, Result } from "ioredis";

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** INCR, and PEXPIRE only when the key has no expiry yet (the first hit opens the window): [count, ms left]. */
    portalHit(key: string, windowMs: number): Result<[number, number], Context>;
    /** [count, ms left], [0, 0] when absent. */
    portalPeek(key: string): Result<[number, number], Context>;
    /** DECR when the count is above 0 (the expiry stays); nothing for an absent key: the count after it. */
    portalGiveBack(key: string): Result<number, Context>;
    /** Deletes the key only if it still holds this caller's token: 1 when deleted. */
    portalRelease(key: string, token: string): Result<number, Context>;
  }
}

// PEXPIRE … NX needs Redis 7; checking PTTL in the script does the same on any version, and still in one step.
const HIT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}`;

const PEEK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local left = redis.call('PTTL', KEYS[1])
if left < 0 then left = 0 end
return {count, left}`;

const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** Sent once per connection, then called by digest (EVALSHA); ioredis loads it again after a NOSCRIPT. */
export function defineScripts(client: Redis): void {
  client.defineCommand("portalHit", { numberOfKeys: 1, lua: HIT });
  client.defineCommand("portalPeek", { numberOfKeys: 1, lua: PEEK });
  client.defineCommand("portalGiveBack", { numberOfKeys: 1, lua: GIVE_BACK });
  client.defineCommand("portalRelease", { numberOfKeys: 1, lua: RELEASE });
}
