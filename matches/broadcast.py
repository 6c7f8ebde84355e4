"""Push a match's new state to its websocket group. The one place that names the group."""
from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def broadcast_match_update(match_id: int, payload: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(match_group(match_id), {"type": "match.update", **payload})
