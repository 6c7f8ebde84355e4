"""The Redis channel layer's one-round-trip ``group_send`` (``polo.channel_layer``) against a real
Redis: it delivers what channels-redis's own ``group_send`` delivers, to the group's members as
they are at the send (a process that joined or left since the last send included), keeps the
layer's capacity and expiries, and asks Redis once when the members have not changed."""

from __future__ import annotations

import asyncio
import contextlib
import uuid

import redis.asyncio
from channels_redis.core import RedisChannelLayer as StockLayer

from matches.tests.live_servers import TEST_REDIS_URL
from polo.channel_layer import RedisChannelLayer

GROUP = "match.7"
WAIT = 10  # seconds: the most a delivered message may take (an event is awaited, not a window)


def layers(*, capacity: int = 100, count: int = 2, stock: int = 0):
    """Layers sharing one prefix, as the processes of one deployment do (``stock`` of them
    channels-redis's own)."""
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    config = {"hosts": [TEST_REDIS_URL], "prefix": prefix, "capacity": capacity, "expiry": 30}
    return [RedisChannelLayer(**config) for _ in range(count)] + [StockLayer(**config) for _ in range(stock)]


async def close(*all_layers) -> None:
    await all_layers[0].flush()
    for layer in all_layers:
        await layer.close_pools()


@contextlib.asynccontextmanager
async def sender_and_member():
    """Two processes' layers: one that sends, one with a channel in ``GROUP``."""
    sender, member = layers()
    try:
        channel = await member.new_channel()
        await member.group_add(GROUP, channel)
        yield sender, member, channel
    finally:
        await close(sender, member)


async def receive(layer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), WAIT)


async def next_is_marker(layer, channel: str) -> dict:
    """What ``channel`` holds before a marker sent to it now (None: nothing): a message that was
    not delivered is shown absent by an event (the marker arriving first), not by a quiet wait."""
    await layer.send(channel, {"type": "marker"})
    return await receive(layer, channel)


@contextlib.contextmanager
def commands_of(connection):
    """The names of the commands ``connection`` (a redis-py client) sends while in the block."""
    commands: list[str] = []
    execute = redis.asyncio.Redis.execute_command

    async def counted(self, *args, **options):
        if self is connection:
            commands.append(str(args[0]))
        return await execute(self, *args, **options)

    redis.asyncio.Redis.execute_command = counted
    try:
        yield commands
    finally:
        redis.asyncio.Redis.execute_command = execute


def test_a_group_send_reaches_every_process_of_the_group_once_with_the_stock_layers_message():
    async def scenario():
        ours, other, stock = layers(stock=1)
        try:
            channels = [await layer.new_channel() for layer in (ours, other, stock)]
            for layer, channel in zip((ours, other, stock), channels, strict=True):
                await layer.group_add(GROUP, channel)
            message = {"type": "match.update", "match_id": 7, "seq": 3, "states": {"en": {"a": 1}, "es": {"a": 1}}}
            await ours.group_send(GROUP, message)
            pairs = list(zip((ours, other, stock), channels, strict=True))
            received = [await receive(layer, channel) for layer, channel in pairs]
            assert received == [message, message, message]
            # Once each: the next thing in every channel is what is sent after.
            for layer, channel in pairs:
                assert (await next_is_marker(layer, channel))["type"] == "marker"
            # And the stock layer's send arrives at ours the same.
            await stock.group_send(GROUP, {**message, "seq": 4})
            assert (await receive(ours, channels[0]))["seq"] == 4
        finally:
            await close(ours, other, stock)

    asyncio.run(scenario())


def test_a_process_that_joins_or_leaves_between_two_sends_is_sent_to_as_it_is_now():
    async def scenario():
        sender, first, second = layers(count=3)
        try:
            a = await first.new_channel()
            b = await second.new_channel()
            await first.group_add(GROUP, a)
            await sender.group_send(GROUP, {"type": "match.update", "seq": 1})  # the sender learns {a}
            assert (await receive(first, a))["seq"] == 1
            await second.group_add(GROUP, b)  # a process starts following the match
            await sender.group_send(GROUP, {"type": "match.update", "seq": 2})
            assert (await receive(first, a))["seq"] == 2
            assert (await receive(second, b))["seq"] == 2
            await first.group_discard(GROUP, a)  # and one stops
            await sender.group_send(GROUP, {"type": "match.update", "seq": 3})
            assert (await receive(second, b))["seq"] == 3
            assert (await next_is_marker(first, a))["type"] == "marker"
        finally:
            await close(sender, first, second)

    asyncio.run(scenario())


def test_members_past_the_group_expiry_are_dropped_and_not_sent_to():
    async def scenario():
        sender, member = layers()
        try:
            old = await member.new_channel()
            fresh = await member.new_channel()
            await member.group_add(GROUP, old)
            await member.group_add(GROUP, fresh)
            admin = redis.asyncio.Redis.from_url(TEST_REDIS_URL)
            try:
                key = sender._group_key(GROUP)
                await admin.zadd(key, {old: 1})  # joined at the epoch: long past the group expiry
                await sender.group_send(GROUP, {"type": "match.update", "seq": 1})
                assert (await receive(member, fresh))["seq"] == 1
                assert (await next_is_marker(member, old))["type"] == "marker"
                assert [m.decode() for m in await admin.zrange(key, 0, -1)] == [fresh]
            finally:
                await admin.aclose()
        finally:
            await close(sender, member)

    asyncio.run(scenario())


def test_a_member_at_capacity_is_skipped_and_the_others_still_get_the_message(caplog):
    async def scenario():
        sender, full, free = layers(capacity=2, count=3)
        try:
            a = await full.new_channel()
            b = await free.new_channel()
            await full.group_add(GROUP, a)
            await free.group_add(GROUP, b)
            for n in range(2):
                await sender.send(a, {"type": "filler", "n": n})
            await sender.group_send(GROUP, {"type": "match.update", "seq": 1})
            assert (await receive(free, b))["seq"] == 1
            assert [(await receive(full, a))["type"] for _ in range(2)] == ["filler", "filler"]
            assert (await next_is_marker(full, a))["type"] == "marker"  # the update was not added
        finally:
            await close(sender, full, free)

    with caplog.at_level("INFO", logger="channels_redis.core"):
        asyncio.run(scenario())
    assert "1 of 2 channels over capacity in group match.7" in caplog.text


def test_a_send_to_a_group_whose_members_are_known_asks_redis_once():
    async def scenario():
        async with sender_and_member() as (sender, member, channel):
            await sender.group_send(GROUP, {"type": "match.update", "seq": 1})  # learns the members
            assert (await receive(member, channel))["seq"] == 1
            with commands_of(sender.connection(0)) as commands:
                await sender.group_send(GROUP, {"type": "match.update", "seq": 2})
            assert commands == ["EVALSHA"]
            assert (await receive(member, channel))["seq"] == 2

    asyncio.run(scenario())


def test_with_several_redis_hosts_the_stock_send_is_used(monkeypatch):
    layer = RedisChannelLayer(hosts=[TEST_REDIS_URL] * 2, prefix="unused")
    sent: list[tuple[str, dict]] = []

    async def stock(self, group, message):
        sent.append((group, message))

    monkeypatch.setattr(StockLayer, "group_send", stock)
    asyncio.run(layer.group_send(GROUP, {"type": "match.update"}))
    assert sent == [(GROUP, {"type": "match.update"})]


def test_a_received_message_is_one_command_and_several_come_in_order():
    async def scenario():
        async with sender_and_member() as (sender, member, channel):
            connection = member.connection(0)
            for seq in (1, 2, 3):
                await sender.group_send(GROUP, {"type": "match.update", "seq": seq})
            with commands_of(connection) as commands:
                assert [(await receive(member, channel))["seq"] for _ in range(3)] == [1, 2, 3]
            assert commands == ["BZPOPMIN"] * 3
            # Nothing was left in a backup queue for anyone to put back.
            assert await connection.keys(f"{member.prefix}*backup*") == []

    asyncio.run(scenario())


def test_a_receive_waiting_for_a_message_gets_it_when_it_is_sent():
    async def scenario():
        async with sender_and_member() as (sender, member, channel):
            waiting = asyncio.ensure_future(receive(member, channel))
            await asyncio.sleep(0)  # the receive is under way (blocked in Redis or about to be)
            await sender.group_send(GROUP, {"type": "match.update", "seq": 9})
            assert (await waiting)["seq"] == 9

    asyncio.run(scenario())


def test_a_group_send_writes_its_command_in_the_first_step_of_its_task():
    """What ``writes_group_send_at_once`` promises (``matches.live.broadcast.deliver`` relies on
    it): once a send's task has taken its first step, its one command is written to Redis."""
    written: list[str] = []
    send_packed = redis.asyncio.connection.AbstractConnection.send_packed_command

    async def recorded(self, command, check_health=True):
        written.append("command")
        return await send_packed(self, command, check_health)

    async def scenario():
        async with sender_and_member() as (sender, member, channel):
            await sender.group_send(GROUP, {"type": "match.update", "seq": 1})  # members, script, connection
            assert (await receive(member, channel))["seq"] == 1
            redis.asyncio.connection.AbstractConnection.send_packed_command = recorded
            try:
                sending = asyncio.ensure_future(sender.group_send(GROUP, {"type": "match.update", "seq": 2}))
                await asyncio.sleep(0)  # the task's first step, and no more
                assert written == ["command"] and not sending.done()
                await sending
            finally:
                redis.asyncio.connection.AbstractConnection.send_packed_command = send_packed
            assert (await receive(member, channel))["seq"] == 2

    assert RedisChannelLayer.writes_group_send_at_once is True
    asyncio.run(scenario())
