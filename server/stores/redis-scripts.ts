// The Lua scripts the shared stores run: each is one atomic step in Redis, never a read followed by a write. Those that
// write what must never be refused (the session ledger, the activity, the trusted browsers) carry `allow-oom` (Redis 7,
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
     * Adds an item to a person's list (order, entries; server/stores/person-lists-redis.ts): drops the items of a time
     * up to `oldest`, then the oldest past `max`, and keeps both keys for `ttl` ms; answers the ids dropped by the
     * bound, oldest first. `onlyIfListed` "1" adds nothing to a person without a list.
     */
    portalListAdd(
      order: string,
      entries: string,
      id: string,
      time: string,
      item: string,
      oldest: string,
      max: string,
      ttl: string,
      onlyIfListed: string,
    ): Result<string[], Context>;
    /** Takes an item off a person's list (order, entries). Even when Redis is full. */
    portalListRemove(order: string, entries: string, id: string): Result<number, Context>;
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
    /**
     * A session's record (server/stores/ledger-redis.ts): written for `ms` and filed in its person's ids (kept for
     * `keepMs`, those born before `oldest` dropped), then announced, unless its ending key exists: a write never undoes
     * an ending. Answers 1 when written. Even when Redis is full.
     */
    portalLedgerWrite(
      record: string,
      ending: string,
      person: string,
      value: string,
      ms: string,
      id: string,
      born: string,
      keepMs: string,
      oldest: string,
      channel: string,
      message: string,
    ): Result<number, Context>;
    /**
     * A session ends, once: its ending key is set only when absent, its record replaced by the ended one (`value`, when
     * it is still there), and the ending announced. Answers 1 when this call ended it. Even when Redis is full.
     */
    portalLedgerEnd(
      record: string,
      ending: string,
      endingValue: string,
      ms: string,
      value: string,
      channel: string,
      message: string,
    ): Result<number, Context>;
  }
}

/** Scripts `N` as a client and a pipeline both have them, each answering `R`: one step, written the same way to both. */
export type Scripts<N extends keyof Redis, R> = {
  [K in N]: Redis[K] extends (...args: infer A) => unknown ? (...args: A) => R : never;
};

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

const LEDGER_WRITE = `${ALLOW_OOM}
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[6])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
if ARGV[7] ~= '' then
  redis.call('PUBLISH', ARGV[7], ARGV[8])
end
return 1`;

const LEDGER_END = `${ALLOW_OOM}
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 0
end
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[1], ARGV[3], 'XX', 'PX', ARGV[2])
end
if ARGV[4] ~= '' then
  redis.call('PUBLISH', ARGV[4], ARGV[5])
end
return 1`;

// The trimmed mark is the entries hash's empty field: no id is empty.
const LIST_ADD = `${ALLOW_OOM}
if ARGV[7] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])) do
  redis.call('HDEL', KEYS[2], old)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
local dropped = {}
if over > 0 then
  dropped = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  for _, old in ipairs(dropped) do
    redis.call('ZREM', KEYS[1], old)
    redis.call('HDEL', KEYS[2], old)
  end
  redis.call('HSET', KEYS[2], '', '1')
end
for i = 1, 2 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return dropped`;

const LIST_REMOVE = `${ALLOW_OOM}
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])`;

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
  client.defineCommand("portalListAdd", { numberOfKeys: 2, lua: LIST_ADD });
  client.defineCommand("portalListRemove", { numberOfKeys: 2, lua: LIST_REMOVE });
  client.defineCommand("portalFailureCount", { numberOfKeys: 2, lua: FAILURE_COUNT });
  client.defineCommand("portalFailureSignedIn", { numberOfKeys: 1, lua: FAILURE_SIGNED_IN });
  client.defineCommand("portalLedgerWrite", { numberOfKeys: 3, lua: LEDGER_WRITE });
  client.defineCommand("portalLedgerEnd", { numberOfKeys: 2, lua: LEDGER_END });
}
