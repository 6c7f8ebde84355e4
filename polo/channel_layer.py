"""channels-redis's layer, with ``group_send`` in one round trip to Redis instead of four, and a
received message taken in one command instead of four.

Every accepted event goes to its match's group (``matches.live.broadcast``): one member per
process that has sockets of that match (its hub). channels-redis's ``group_send`` asks Redis four
times in turn (prune the group's expired members, list them, prune each member's expired messages,
then a script that adds the message to each) and every other process's screens wait for all four;
under a crowd each round trip also waits for a busy machine to run the loop again (measured about
2.7 ms for the four, ``docs/CAPACITY.md``).

Here one script does all four steps on the Redis side, given the members this process saw last
time (``_members``): when they are still the group's members, it adds the message for each and
answers; when they are not (a process started or stopped following the match), it adds nothing and
answers with the members as they are, and the send is built again for them. So what is delivered,
to whom, with which expiry and capacity, is what channels-redis would deliver; only the number of
round trips changes. With more than one Redis host (sharding) the members' keys may live on other
hosts than the group, and the layer's own ``group_send`` is used.

On the receiving side channels-redis pops each message into a backup queue: a script to put back
what an interrupted receive left there, the blocking pop, a write of the message to the backup
(awaited before the message is handed on) and, once handed on, its removal. Four commands a
message, one of them between the pop and the hub. In this app the only receiver of a process is
its hub, on the process's own channel (the sockets have no layer channel, ``consumers.NO_LAYER``),
and that backup does not serve it: it is keyed by the process, so a process that dies leaves it
to nobody, and a receive cancelled in the blocking pop loses the message with or without it. The
layer is at-most-once for the app in any case; a hub that misses an update reads it from the log
(``fanout``). Here a message is the blocking pop alone, and nothing is awaited between the pop and
the hand-on, so no cancellation can fall there.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer

from . import seams

SEAM = "channels-redis-one-round-trip"

logger = logging.getLogger("channels_redis.core")

# KEYS[1]: the group's key; KEYS[2..]: the members' channel keys (one per key, as channels-redis
# maps them). ARGV: the group's expiry cutoff, the message's expiry cutoff, the time, the
# channel expiry, the number of members expected, those members, then a message and a capacity
# per channel key. Answers {0, over_capacity} when sent, {1, members...} when the members differ.
GROUP_SEND = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local expected = tonumber(ARGV[5])
local same = #members == expected
if same then
    local seen = {}
    for i = 1, expected do seen[ARGV[5 + i]] = true end
    for _, member in ipairs(members) do
        if not seen[member] then same = false break end
    end
end
if not same then
    local answer = {1}
    for _, member in ipairs(members) do answer[#answer + 1] = member end
    return answer
end
local keys = #KEYS - 1
local base = 5 + expected
local over_capacity = 0
for i = 1, keys do
    local key = KEYS[i + 1]
    redis.call('ZREMRANGEBYSCORE', key, 0, ARGV[2])
    if redis.call('ZCOUNT', key, '-inf', '+inf') < tonumber(ARGV[base + keys + i]) then
        redis.call('ZADD', key, ARGV[3], ARGV[base + i])
        redis.call('EXPIRE', key, ARGV[4])
    else
        over_capacity = over_capacity + 1
    end
end
return {0, over_capacity}
"""

# A group whose members change on every try is left to channels-redis's own send.
TRIES = 3


class RedisChannelLayer(_RedisChannelLayer):
    """``channels_redis.core.RedisChannelLayer`` with a one-round-trip ``group_send`` and a
    one-command receive."""

    # ``group_send`` writes its one command to Redis in its first step, before it first waits
    # (with a pooled connection free, as between two events): once its task has begun, the message
    # is on its way and only Redis's answer is awaited (``matches.live.broadcast.deliver``).
    writes_group_send_at_once = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._members: dict[str, list[str]] = {}
        self._group_send_script: Any = None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        if self.ring_size != 1 or not seams.on(SEAM):
            await super().group_send(group, message)
            return
        connection = self.connection(0)
        if self._group_send_script is None:
            self._group_send_script = connection.register_script(GROUP_SEND)
        members = self._members.get(group)
        for _ in range(TRIES):
            answer = await self._send_to(connection, group, message, members)
            if answer[0] == 0:
                self._members[group] = members or []
                if answer[1] > 0:
                    logger.info("%s of %s channels over capacity in group %s", answer[1], len(members or []), group)
                return
            members = [member.decode("utf8") for member in answer[1:]]
        self._members.pop(group, None)
        await super().group_send(group, message)

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> bytes | None:
        """The next message on ``channel`` (None if none came within ``timeout``): the pop alone."""
        if not seams.on(SEAM):
            return await super()._brpop_with_clean(index, channel, timeout)
        result = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if result is None else result[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        """Nothing was put in a backup queue (``_brpop_with_clean``)."""
        if not seams.on(SEAM):
            await super()._clean_receive_backup(index, channel)

    async def _send_to(self, connection, group: str, message: dict[str, Any], members: list[str] | None) -> list:
        """One try: the script, sending to ``members`` if they are the group's (None: not known yet,
        which no group can match, so the answer lists them)."""
        now = time.time()
        expected = members if members is not None else []
        _, keys_to_message, keys_to_capacity = self._map_channel_keys_to_connection(expected, message)
        keys = list(keys_to_message)
        args: list[Any] = [
            int(now) - self.group_expiry,
            int(now) - int(self.expiry),
            now,
            self.expiry,
            len(expected) if members is not None else -1,
            *expected,
            *(keys_to_message[key] for key in keys),
            *(keys_to_capacity[key] for key in keys),
        ]
        return await self._group_send_script(keys=[self._group_key(group), *keys], args=args, client=connection)
