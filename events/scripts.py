"""The Lua scripts of the event store, registered once per store and called by name.

Rules of this file: every key a script touches comes in KEYS (no key name is built in Lua, so the
per-game keys, which share the hash tag `{g:<id>}`, can move to Redis Cluster); a script checks
everything before its first write, because Redis does not roll back a script that fails half-way.
Results are plain arrays tagged by a word, so callers need no error-message parsing.
"""

# Appends events to one game atomically, or nothing at all.
#
# KEYS[1] the game's event stream   KEYS[2] the game's meta hash   KEYS[3] the game's chain head
# KEYS[4] the game's snapshot hash, then, each only when ARGV says it is there:
#   the idempotency record; the throttle's key (in the game's slot too); on one primary only ("inline
#   cross-slot writes") the global feed stream and lobby:waiting, :active, :finished. On Redis Cluster
#   those live in other slots: the caller writes them after the commit (events/crossslot.py), and this
#   script touches nothing outside the game's hash tag.
# ARGV[1] expected version    ARGV[2] game id              ARGV[3] `at` (ISO)   ARGV[4] `at` in ms
# ARGV[5] fingerprint         ARGV[6] idempotency TTL (s)  ARGV[7] lobby target: 0 none, 1..3 = waiting..finished
# ARGV[8] the engine version of a snapshot of the state after these events ("" for none)
# ARGV[9] that snapshot's state (as events/store.py packs it)
# ARGV[10] n events           ARGV[11] "1": an idempotency record key is given
# ARGV[12], ARGV[13] the throttle: its emission interval and period in µs ("0": no throttle)
# ARGV[14] "1": the feed and lobby keys are given (inline cross-slot writes)
# then n pairs (type, encoded event), then the meta field/value pairs.
#
# The throttle (a rate limit of the writer, e.g. a seat's actions) is GCRA: its key holds the
# theoretical arrival time of the next write; a write that comes too early is refused, with the
# microseconds until one would be accepted. It is checked here, in the append's own round trip, after a
# retry's record (a retry is not a new write) and before anything is written.
#
# The snapshot is written here, with the events it follows, rather than by a second call: one round trip
# fewer, and it is the newest snapshot by construction (its version is the stream's newest).
#
# The hash chain (events/audit.py verifies it): each entry is written with the fields
#   e = the encoded event,  h = the 20 bytes of sha1(prev .. "\n" .. version .. "\n" .. e)
# where prev is the hex hash of the entry before (before version 1, the genesis hash
# sha1hex("talon-genesis\n" .. game id)). The previous hash is not stored again in the entry (it is the
# entry before's `h`), and `h` is kept as bytes, not hex: together a third of a stored match. The
# previous hash is read here, inside the script, from the chain head key, which the script itself keeps
# in step with the stream: no writer can chain onto a head it has not seen, and no round trip is added.
#
# Returns {"ok", first, last, head hash, created_ms} | {"replayed", first, last} | {"conflict", current} |
#         {"mismatch"} | {"throttled", µs to wait} | {"unchained", current} (the chain head key does not
#         record the stream's newest entry: the stream was not written by this script, or was edited since).

# Lua has no hex decoding of its own: sha1hex gives 40 hex digits, the entry stores their 20 bytes.
# Those 40 digits are five 32-bit numbers, packed big-endian by the struct library Redis gives scripts:
# a few calls into C, where decoding the digits pair by pair through a Lua function was a fifth of what
# an append's script cost Redis. Anything that is not 40 hex digits is still decoded pair by pair.
HEX_TO_BYTES = """
local function hex_to_bytes(hex)
  if #hex == 40 and not string.find(hex, '%X') then
    local s = string.sub
    return struct.pack('>I4I4I4I4I4', tonumber(s(hex, 1, 8), 16), tonumber(s(hex, 9, 16), 16),
      tonumber(s(hex, 17, 24), 16), tonumber(s(hex, 25, 32), 16), tonumber(s(hex, 33, 40), 16))
  end
  return (string.gsub(hex, '%x%x', function(pair) return string.char(tonumber(pair, 16)) end))
end
"""

APPEND = (
    HEX_TO_BYTES
    + """
local events_key, meta_key, head_key, snap_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected = tonumber(ARGV[1])
local game_id, at, at_ms, fingerprint = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local ttl, lobby_target = tonumber(ARGV[6]), tonumber(ARGV[7])
local snap_engine, snap_state, n = ARGV[8], ARGV[9], tonumber(ARGV[10])
local interval, period = tonumber(ARGV[12]), tonumber(ARGV[13])
local next_key = 5
local idem_key, throttle_key, feed_key, lobby_at
if ARGV[11] == '1' then idem_key, next_key = KEYS[next_key], next_key + 1 end
if interval > 0 then throttle_key, next_key = KEYS[next_key], next_key + 1 end
if ARGV[14] == '1' then feed_key, lobby_at = KEYS[next_key], next_key end

-- 1. A retry is answered from its record before the version check: its expected version may be stale
--    by now because of its own first success.
if idem_key then
  local record = redis.call('GET', idem_key)
  if record then
    local first, last, recorded = string.match(record, '^(%d+):(%d+):(.*)$')
    if recorded ~= fingerprint then return {'mismatch'} end
    return {'replayed', tonumber(first), tonumber(last)}
  end
end

-- 1b. The writer's rate (GCRA, Redis's clock): a write that comes too early writes nothing.
if throttle_key then
  local now = redis.call('TIME')
  now = tonumber(now[1]) * 1000000 + tonumber(now[2])
  local tat = math.max(tonumber(redis.call('GET', throttle_key) or now), now)
  local new_tat = tat + interval
  if new_tat - now > period then return {'throttled', new_tat - now - period} end
  redis.call('SET', throttle_key, new_tat, 'PX', math.ceil((new_tat - now) / 1000))
end

-- 2. Optimistic concurrency: the stream head is the one source of the current version.
local current = 0
local head = redis.call('XREVRANGE', events_key, '+', '-', 'COUNT', 1)
if head[1] then current = tonumber(string.match(head[1][1], '^(%d+)')) end
if current ~= expected then return {'conflict', current} end
local prev_hash
if current == 0 then
  prev_hash = redis.sha1hex('talon-genesis\\n' .. game_id)
else
  local chain_version, chain_hash = string.match(redis.call('GET', head_key) or '', '^(%d+):(%x+)$')
  if tonumber(chain_version) ~= current then return {'unchained', current} end
  prev_hash = chain_hash
end

-- 3. The events, with explicit ids so that entry id = version, contiguous from 1.
-- 4. Inline: one feed entry each for the operators' global feed (trimmed roughly, which is cheap).
for i = 1, n do
  local version = expected + i
  local event_type, encoded = ARGV[13 + 2 * i], ARGV[14 + 2 * i]
  local own_hash = redis.sha1hex(prev_hash .. '\\n' .. version .. '\\n' .. encoded)
  redis.call('XADD', events_key, string.format('%d-0', version), 'e', encoded, 'h', hex_to_bytes(own_hash))
  prev_hash = own_hash
  if feed_key then
    redis.call('XADD', feed_key, 'MAXLEN', '~', 1000000, '*',
               'g', game_id, 'v', version, 't', event_type)
  end
end
local first, last = expected + 1, expected + n
-- The chain head outside the stream: deleting the newest entries alone shows as a head mismatch.
redis.call('SET', head_key, last .. ':' .. prev_hash)
if snap_engine ~= '' then
  redis.call('HSET', snap_key, 'version', last, 'engine', snap_engine, 'state', snap_state)
end

-- 5. Meta: the creation time comes with the first append; the caller's fields may override it.
if current == 0 then
  redis.call('HSETNX', meta_key, 'created', at)
  redis.call('HSETNX', meta_key, 'created_ms', at_ms)
end
local meta_start = 15 + 2 * n
if #ARGV >= meta_start then
  redis.call('HSET', meta_key, unpack(ARGV, meta_start))
end
-- A game is in exactly one lobby set, the one of its status, scored by creation time.
local created_ms = false
if lobby_target > 0 then
  created_ms = redis.call('HGET', meta_key, 'created_ms')
  for i = 1, 3 do
    if not lobby_at then break end
    if i == lobby_target then
      redis.call('ZADD', KEYS[lobby_at + i], created_ms, game_id)
    else
      redis.call('ZREM', KEYS[lobby_at + i], game_id)
    end
  end
end

-- 6. The record a retry will be answered from.
if idem_key then
  redis.call('SET', idem_key, first .. ':' .. last .. ':' .. fingerprint, 'EX', ttl)
end
return {'ok', first, last, prev_hash, created_ms}
"""
)

# Reads what a request needs to rebuild a game, in one round trip.
#
# KEYS[1] the game's snapshot hash    KEYS[2] the game's event stream    KEYS[3] the game's chain head
# ARGV[1] the engine version of the caller: a snapshot taken under another one is ignored.
# ARGV[2], ARGV[3] (optional) a version whose state the caller holds already, and that entry's hash.
#
# Returns {snapshot version or 0, snapshot state JSON or nil, entries after the snapshot, chain head}
# or, when the entry at ARGV[2] still has the hash ARGV[3], {ARGV[2], "known", entries after it, chain
# head}: the chain makes that hash stand for the whole history up to it, so the caller's state is that
# history's fold, and neither the snapshot nor the older entries need to travel.
LOAD = (
    HEX_TO_BYTES
    + """
local head = redis.call('GET', KEYS[3])
if ARGV[2] then
  local known = tonumber(ARGV[2])
  if head == ARGV[2] .. ':' .. ARGV[3] then return {known, 'known', {}, head} end
  local entry = redis.call('XRANGE', KEYS[2], ARGV[2] .. '-0', ARGV[2] .. '-0')
  if entry[1] then
    local fields = entry[1][2]
    for j = 1, #fields, 2 do
      -- `h` as bytes; entries written before that change hold hex
      if fields[j] == 'h' and (fields[j + 1] == hex_to_bytes(ARGV[3]) or fields[j + 1] == ARGV[3]) then
        return {known, 'known', redis.call('XRANGE', KEYS[2], string.format('%d-0', known + 1), '+'), head}
      end
    end
  end
end
local snap = redis.call('HMGET', KEYS[1], 'version', 'engine', 'state')
local after, state = 0, false
if snap[1] and snap[2] == ARGV[1] then
  after, state = tonumber(snap[1]), snap[3]
end
return {after, state, redis.call('XRANGE', KEYS[2], string.format('%d-0', after + 1), '+'), head}
"""
)

# Keeps the newest snapshot of a game: an older one never replaces a newer one, whatever the order in
# which concurrent writers arrive. A snapshot of the same version replaces it (e.g. a new engine).
#
# KEYS[1] the game's snapshot hash    KEYS[2] the game's event stream
# ARGV[1] version   ARGV[2] engine version   ARGV[3] state JSON
#
# Returns {"saved"} | {"stale", newer version} | {"beyond", current version of the stream}.
SAVE_SNAPSHOT = """
local version = tonumber(ARGV[1])
local kept = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if kept > version then return {'stale', kept} end
local current = 0
local head = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
if head[1] then current = tonumber(string.match(head[1][1], '^(%d+)')) end
-- A snapshot of events that do not exist would make every later load skip them.
if version > current then return {'beyond', current} end
redis.call('HSET', KEYS[1], 'version', version, 'engine', ARGV[2], 'state', ARGV[3])
return {'saved'}
"""

# Stores a finished game's stream again at the size of its entries.
#
# KEYS[1] the game's event stream   KEYS[2] a spare key of the same game, empty before and after
#
# Redis gives each new stream node room for 4 KB of entries at once (less with a smaller
# stream-node-max-bytes) and never takes back what the newest node leaves unused. A finished game is not
# appended to again, so it would hold that room for as long as it is stored: up to 4 KB, on average 6% of
# a 2p24 Sixty-Six match. COPY allocates every node at the size of its entries; RENAME puts the copy in
# place, in the same script, so that nobody sees the stream missing or a write land in the old one.
COMPACT = """
if redis.call('COPY', KEYS[1], KEYS[2], 'REPLACE') == 1 then
  redis.call('RENAME', KEYS[2], KEYS[1])
end
return 1
"""

# Writes one exported game into this Redis as it was: the same entry ids, payloads `e` and hashes `h`
# (as bytes, like APPEND), so the chain written by APPEND elsewhere verifies here too (events/audit.py).
# Refuses a game id that exists. The global feed is not written: it lists appends made on this Redis.
#
# KEYS[1] the game's event stream   KEYS[2] the game's meta hash   KEYS[3] the game's chain head
# KEYS[4..6] lobby:waiting, lobby:active, lobby:finished
# ARGV[1] game id   ARGV[2] lobby target: 0 none, 1..3 = KEYS[4..6]   ARGV[3] n entries
# then n triples (version, e, h in hex), then the meta field/value pairs.
#
# Returns {"imported", n} | {"exists", current version}.
IMPORT = (
    HEX_TO_BYTES
    + """
local head = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if head[1] then return {'exists', tonumber(string.match(head[1][1], '^(%d+)'))} end
local game_id, lobby_target, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local last_version, last_hash
for i = 0, n - 1 do
  local version, e, h = ARGV[4 + 3 * i], ARGV[5 + 3 * i], ARGV[6 + 3 * i]
  redis.call('XADD', KEYS[1], version .. '-0', 'e', e, 'h', hex_to_bytes(h))
  last_version, last_hash = version, h
end
if n > 0 then redis.call('SET', KEYS[3], last_version .. ':' .. last_hash) end
local meta_start = 4 + 3 * n
if #ARGV >= meta_start then
  redis.call('HSET', KEYS[2], unpack(ARGV, meta_start))
end
if lobby_target > 0 then
  local created_ms = redis.call('HGET', KEYS[2], 'created_ms') or '0'
  redis.call('ZADD', KEYS[3 + lobby_target], created_ms, game_id)
end
return {'imported', n}
"""
)
