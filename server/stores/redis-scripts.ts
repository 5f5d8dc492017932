// The Lua scripts the shared stores run: each is one atomic step in Redis, never a read followed by a write. Those that
// write what must never be refused (revocations, the session registry, the activity, the person marks) carry `allow-oom` (Redis 7,
// Valkey): a Redis full of what unauthenticated clients made still takes them (docs/decisions.md, "Shared state").
import type { Redis, Result } from "ioredis";

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** INCR, and PEXPIRE only when the key has no expiry yet (the first hit opens the window): [count, ms left]. */
    portalHit(key: string, windowMs: number): Result<[number, number], Context>;
    /** DECR while the key exists and is above 0: the window and its end stay as they are. */
    portalGiveBack(key: string): Result<number, Context>;
    /** [count, ms left], [0, 0] when absent. */
    portalPeek(key: string): Result<[number, number], Context>;
    /** Deletes the key only if it still holds this caller's token: 1 when deleted. */
    portalRelease(key: string, token: string): Result<number, Context>;
    /**
     * Adds an item to a person's list (order, entries, seen; server/stores/person-lists-redis.ts): drops the items of
     * a time up to `oldest`, then the oldest past `max`, and keeps the three keys for `ttl` ms; answers the ids dropped
     * by the bound, oldest first. An empty `seenAt` writes no "last seen"; `onlyIfListed` "1" adds nothing to a person
     * without a list. With `revokedPrefix`, the bound first takes off the items whose id is revoked (the key
     * `<revokedPrefix><id>` exists), so a session signed out whose removal never came is never counted.
     */
    portalListAdd(
      order: string,
      entries: string,
      seen: string,
      id: string,
      time: string,
      item: string,
      seenAt: string,
      oldest: string,
      max: string,
      ttl: string,
      onlyIfListed: string,
      revokedPrefix: string,
    ): Result<string[], Context>;
    /** Takes an item off a person's list (order, entries, seen). Even when Redis is full. */
    portalListRemove(order: string, entries: string, seen: string, id: string): Result<number, Context>;
    /** Writes an item's "last seen" only while it is listed. */
    portalListSeen(entries: string, seen: string, id: string, at: string): Result<number, Context>;
    /**
     * Counts a failure into a person's record (server/stores/failure-tallies.ts, `countInto`), kept `ttl` ms; with
     * `knownOnly` "1", only when the record or the person's activity list (`known`) exists. Even when Redis is full.
     */
    portalFailureCount(
      key: string,
      known: string,
      kind: string,
      at: string,
      tag: string,
      device: string,
      address: string,
      max: string,
      ttl: string,
      knownOnly: string,
    ): Result<number, Context>;
    /**
     * A completed sign-in opens a period in the record (`rotate`), keeping the newest `periods`, when there is a
     * record. Even when Redis is full.
     */
    portalFailureSignedIn(key: string, at: string, ttl: string, periods: string): Result<number, Context>;
    /** SET key "1" PX ms, then PUBLISH the message on the channel unless the channel is "". Even when Redis is full. */
    portalRevoke(key: string, ms: string, channel: string, message: string): Result<number, Context>;
    /**
     * A person's mark "sessions begun before T are ended" (server/stores/person-marks-redis.ts): kept only when its T
     * is later than the stored one's, for `ms`; announced when kept. Answers 1 when kept. Even when Redis is full.
     */
    portalMark(
      key: string,
      before: string,
      value: string,
      ms: string,
      channel: string,
      message: string,
    ): Result<number, Context>;
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
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** The first line of a script that may write while Redis is at its `maxmemory`. */
const ALLOW_OOM = "#!lua flags=allow-oom";

const REVOKE = `${ALLOW_OOM}
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
if ARGV[2] ~= '' then
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return 1`;

// The stored value is "<before> <rest>": the number first, compared as a number.
const MARK = `${ALLOW_OOM}
local stored = redis.call('GET', KEYS[1])
if stored and tonumber(string.match(stored, '^%d+')) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('PUBLISH', ARGV[4], ARGV[5])
end
return 1`;

// The trimmed mark is the entries hash's empty field: no id is empty. The revoked ids' keys are read by name, not
// passed as KEYS: one Redis, not a cluster (docs/decisions.md, "Shared state").
const LIST_ADD = `${ALLOW_OOM}
if ARGV[8] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[5])) do
  redis.call('HDEL', KEYS[2], old)
  redis.call('HDEL', KEYS[3], old)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[3], ARGV[1])
else
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
end
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[6])
if over > 0 and ARGV[9] ~= '' then
  for _, old in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if redis.call('EXISTS', ARGV[9] .. old) == 1 then
      redis.call('ZREM', KEYS[1], old)
      redis.call('HDEL', KEYS[2], old)
      redis.call('HDEL', KEYS[3], old)
      over = over - 1
    end
  end
end
local dropped = {}
if over > 0 then
  dropped = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  for _, old in ipairs(dropped) do
    redis.call('ZREM', KEYS[1], old)
    redis.call('HDEL', KEYS[2], old)
    redis.call('HDEL', KEYS[3], old)
  end
  redis.call('HSET', KEYS[2], '', '1')
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return dropped`;

const LIST_REMOVE = `${ALLOW_OOM}
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])`;

const LIST_SEEN = `${ALLOW_OOM}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 0`;

// The rules of server/stores/failure-tallies.ts (`countInto`, `rotate`), on its JSON: one step, however many replicas
// count at once. cjson writes an empty table as {}: `periods` is never empty, `tallies` and `addresses` are objects,
// and an empty `seen` reads back as {} (the reader takes it as none). A value that is not a record (one written before
// the periods were kept, say) is none. A mask holds a bit per kept period (20): LuaBitOp's 32-bit integers hold it.
const FAILURE_RECORD = `
local function stored_record(key)
  local stored = redis.call('GET', key)
  if not stored then return nil end
  local ok, record = pcall(cjson.decode, stored)
  if not ok or type(record) ~= 'table' or type(record.periods) ~= 'table' or not record.periods[1] then return nil end
  if type(record.addresses) ~= 'table' then record.addresses = {} end
  return record
end
local function newest_in(mask)
  if mask == 0 then return -1 end
  local index = 0
  while bit.band(mask, bit.lshift(1, index)) == 0 do index = index + 1 end
  return index
end`;

const FAILURE_COUNT = `${ALLOW_OOM}
${FAILURE_RECORD}
local record = stored_record(KEYS[1])
if not record and ARGV[8] == '1' and redis.call('EXISTS', KEYS[2]) == 0 then
  return 0
end
record = record or {periods = {{since = 0, tallies = {}}}, addresses = {}}
local at = tonumber(ARGV[2])
local index = nil
for i, candidate in ipairs(record.periods) do
  if at >= candidate.since then
    index = i - 1
    break
  end
end
if not index then return 0 end
local period = record.periods[index + 1]
local tally = period.tallies[ARGV[1]]
if not tally then
  tally = {count = 0, first = at, last = at, device = ARGV[4], address = ARGV[5]}
  period.tallies[ARGV[1]] = tally
end
tally.count = tally.count + 1
if at < tally.first then tally.first = at end
if at >= tally.last then
  tally.last = at
  tally.device = ARGV[4]
  tally.address = ARGV[5]
end
local addresses = record.addresses[ARGV[1]]
if not addresses then
  addresses = {seen = {}, dropped = 0}
  record.addresses[ARGV[1]] = addresses
end
local tag = tonumber(ARGV[3])
local flag = bit.lshift(1, index)
local known = nil
for _, kept in ipairs(addresses.seen) do
  if kept[1] == tag then known = kept end
end
if known then
  known[2] = bit.bor(known[2], flag)
elseif #addresses.seen < tonumber(ARGV[6]) then
  table.insert(addresses.seen, {tag, flag})
else
  local stalest = 1
  for i, kept in ipairs(addresses.seen) do
    if newest_in(kept[2]) > newest_in(addresses.seen[stalest][2]) then stalest = i end
  end
  if newest_in(addresses.seen[stalest][2]) > index then
    addresses.dropped = bit.bor(addresses.dropped, addresses.seen[stalest][2])
    addresses.seen[stalest] = {tag, flag}
  else
    addresses.dropped = bit.bor(addresses.dropped, flag)
  end
end
redis.call('SET', KEYS[1], cjson.encode(record), 'PX', ARGV[7])
return 1`;

const FAILURE_SIGNED_IN = `${ALLOW_OOM}
${FAILURE_RECORD}
local record = stored_record(KEYS[1])
if not record then return 0 end
local at = tonumber(ARGV[1])
if at <= record.periods[1].since then return 0 end
local kept = tonumber(ARGV[3])
table.insert(record.periods, 1, {since = at, tallies = {}})
while #record.periods > kept do table.remove(record.periods) end
local all = bit.lshift(1, kept) - 1
local addresses = {}
for kind, counted in pairs(record.addresses) do
  local seen = {}
  for _, address in ipairs(counted.seen or {}) do
    local periods = bit.band(bit.lshift(address[2], 1), all)
    if periods ~= 0 then table.insert(seen, {address[1], periods}) end
  end
  local dropped = bit.band(bit.lshift(counted.dropped or 0, 1), all)
  if #seen > 0 or dropped ~= 0 then addresses[kind] = {seen = seen, dropped = dropped} end
end
record.addresses = addresses
redis.call('SET', KEYS[1], cjson.encode(record), 'PX', ARGV[2])
return 1`;

/** Sent once per connection, then called by digest (EVALSHA); ioredis loads it again after a NOSCRIPT. */
export function defineScripts(client: Redis): void {
  client.defineCommand("portalHit", { numberOfKeys: 1, lua: HIT });
  client.defineCommand("portalPeek", { numberOfKeys: 1, lua: PEEK });
  client.defineCommand("portalGiveBack", { numberOfKeys: 1, lua: GIVE_BACK });
  client.defineCommand("portalRelease", { numberOfKeys: 1, lua: RELEASE });
  client.defineCommand("portalListAdd", { numberOfKeys: 3, lua: LIST_ADD });
  client.defineCommand("portalListRemove", { numberOfKeys: 3, lua: LIST_REMOVE });
  client.defineCommand("portalListSeen", { numberOfKeys: 2, lua: LIST_SEEN });
  client.defineCommand("portalFailureCount", { numberOfKeys: 2, lua: FAILURE_COUNT });
  client.defineCommand("portalFailureSignedIn", { numberOfKeys: 1, lua: FAILURE_SIGNED_IN });
  client.defineCommand("portalRevoke", { numberOfKeys: 1, lua: REVOKE });
  client.defineCommand("portalMark", { numberOfKeys: 1, lua: MARK });
}
