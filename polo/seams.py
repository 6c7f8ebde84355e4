"""The one place where the app reaches into a library's private internals (issue 37: stock parts by
default).

A fast path that relies on what a library does not promise (an attribute of an object that is not
its API, a private method, a signature) stays only where a benchmark in the same run shows it
buys at least 20 % on a figure users feel (``docs/CAPACITY.md`` names the figure and the ratio).
Each such path is a ``Seam`` here: what it relies on (``check``, which names whatever is missing in
the installed version), and ``on(name)``, which the fast path asks before it takes the shortcut;
when it is off the code takes the library's public path.

``verify`` runs at start-up (``MatchesConfig.ready``, in every process): a seam whose library no
longer has what it relies on is turned off and an ERROR says so (the app goes on, on the stock
path, slower). ``STOCK_PARTS`` (a comma-separated list of seam names, or ``all``) turns seams off
on purpose: a benchmark's stock side, or an operator who suspects one; that is a WARNING.
``polo/tests/test_seams.py`` fails when a pinned library changes what a seam relies on.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("polo.seams")


@dataclass
class Seam:
    name: str
    library: str  # the distribution whose internals it reads
    buys: str  # the user-felt figure it was kept for (docs/CAPACITY.md)
    check: Callable[[], list[str]]  # what is missing in the installed version (empty: all there)
    enabled: bool = field(default=False)


SEAMS: dict[str, Seam] = {}


def register(name: str, library: str, buys: str) -> Callable[[Callable[[], list[str]]], Callable[[], list[str]]]:
    """Declare a seam by its check (a function naming whatever is missing)."""

    def decorate(check: Callable[[], list[str]]) -> Callable[[], list[str]]:
        SEAMS[name] = Seam(name, library, buys, check)
        return check

    return decorate


def on(name: str) -> bool:
    """Whether the fast path ``name`` may be taken (verified at start-up, not turned off)."""
    return SEAMS[name].enabled


def verify(stock_parts: list[str] | None = None) -> dict[str, bool]:
    """Check every seam against the installed libraries; turn off (with an ERROR) those whose
    library lacks what they rely on, and (with a WARNING) those ``stock_parts`` names."""
    if stock_parts is None:
        from django.conf import settings

        stock_parts = list(getattr(settings, "STOCK_PARTS", []))
    everything = "all" in stock_parts
    for seam in SEAMS.values():
        try:
            missing = seam.check()
        except Exception as exc:  # noqa: BLE001 — a check that cannot even run is a failed one
            missing = [f"the check itself failed: {exc!r}"]
        if missing:
            seam.enabled = False
            log.error(
                "seam %s OFF: the installed %s %s lacks %s; using the library's public path instead "
                "(slower: %s). Update polo/seams.py for this version or pin the one it was written for.",
                seam.name,
                seam.library,
                version(seam.library),
                "; ".join(missing),
                seam.buys,
            )
        elif everything or seam.name in stock_parts:
            seam.enabled = False
            log.warning("seam %s off (STOCK_PARTS): the library's public path is used", seam.name)
        else:
            seam.enabled = True
    return {name: seam.enabled for name, seam in SEAMS.items()}


def version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version as installed

    try:
        return installed(distribution)
    except PackageNotFoundError:
        return "(not installed)"


# --- helpers for the checks ----------------------------------------------------------------------


def missing_attributes(owner: object, names: tuple[str, ...], what: str) -> list[str]:
    return [f"{what}.{name}" for name in names if not hasattr(owner, name)]


def missing_assigned(cls: type, names: tuple[str, ...]) -> list[str]:
    """Instance attributes that the class's methods no longer assign (``self.name = ...``): read
    from their code, since an instance's attributes cannot be asked of the class."""
    assigned: set[str] = set()
    for member in vars(cls).values():
        code = getattr(member, "__code__", None)
        if code is not None:
            assigned.update(code.co_names)
    return [f"{cls.__name__} instances' {name}" for name in names if name not in assigned]


def missing_parameters(function: Callable, names: tuple[str, ...], what: str) -> list[str]:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return [f"{what}'s signature"]
    return [f"{what}({name}=)" for name in names if name not in parameters]


def missing_calls(function: Callable, names: tuple[str, ...], what: str) -> list[str]:
    """Names that ``function``'s own code no longer uses (an override of them would go unheard)."""
    code = getattr(function, "__code__", None)
    used = set(code.co_names) if code is not None else set()
    return [f"{what} using {name}" for name in names if name not in used]


# --- the seams ---------------------------------------------------------------------------------

# What ``matches/live/wire.py`` reads of uvicorn's websocket protocol (each connection's).
UVICORN_PROTOCOL_ATTRIBUTES = (
    "conn",
    "transport",
    "writable",
    "handshake_complete",
    "close_sent",
    "disconnected",
    "initial_response",
)
WEBSOCKETS_CONN_ATTRIBUTES = ("extensions", "expect_continuation_frame")


@register(
    "uvicorn-direct-write",
    "uvicorn",
    "the public's and the officials' event-to-screen p99, 2.08x and 2.41x at 5,000 viewers (docs/CAPACITY.md)",
)
def _uvicorn_direct_write() -> list[str]:
    """``matches/live/wire.py``: the hub writes an update's frame, encoded once, straight to the
    transport of each connection served by uvicorn's websockets (sans-I/O) protocol; Channels'
    session wrapper is stepped over for frames (``consumers.frame_sender``)."""
    from channels.sessions import InstanceSessionWrapper
    from websockets.frames import Frame
    from websockets.protocol import Protocol, State

    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:
        return ["uvicorn.protocols.websockets.websockets_sansio_impl.WebSocketsSansIOProtocol"]
    missing = missing_attributes(WebSocketsSansIOProtocol, ("send",), "WebSocketsSansIOProtocol")
    missing += missing_assigned(WebSocketsSansIOProtocol, UVICORN_PROTOCOL_ATTRIBUTES)
    missing += missing_assigned(Protocol, WEBSOCKETS_CONN_ATTRIBUTES)
    missing += missing_attributes(Protocol, ("state",), "websockets Protocol")
    missing += missing_attributes(State, ("OPEN",), "websockets State")
    missing += missing_parameters(Frame.serialize, ("mask",), "Frame.serialize")
    missing += missing_attributes(InstanceSessionWrapper, ("save_message_types",), "InstanceSessionWrapper")
    missing += missing_assigned(InstanceSessionWrapper, ("real_send",))
    return missing


@register("orm-compiled", "Django", "an event POST's latency, p50 1.47x and p99 1.50x (docs/CAPACITY.md)")
def _orm_compiled() -> list[str]:
    """``matches/compiled.py``: the POST's locked read as SQL built once, its rows made instances
    by the columns' converters and ``from_db``, the rosters put in the entries' prefetch caches as
    Django's ``prefetch_one_level`` does; the write one statement on PostgreSQL, with the save
    signals sent as ``save_base`` sends them."""
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.models import Model, QuerySet
    from django.db.models.base import ModelState
    from django.db.models.expressions import Col
    from django.db.models.fields import Field
    from django.db.models.fields.reverse_related import ForeignObjectRel
    from django.db.models.query import prefetch_one_level

    missing = missing_attributes(Field, ("get_col", "get_db_converters", "get_db_prep_save", "pre_save"), "Field")
    missing += missing_attributes(Col, ("get_db_converters",), "Col")
    missing += missing_attributes(BaseDatabaseOperations, ("get_db_converters",), "DatabaseOperations")
    missing += missing_attributes(ForeignObjectRel, ("cache_name",), "ForeignObjectRel")
    missing += missing_parameters(Model.from_db, ("db", "field_names", "values"), "Model.from_db")
    missing += missing_assigned(QuerySet, ("_result_cache", "_prefetch_done"))
    missing += missing_calls(
        prefetch_one_level, ("_result_cache", "_prefetch_done", "_prefetched_objects_cache"), "prefetch_one_level"
    )
    missing += missing_attributes(ModelState, ("adding", "db"), "ModelState")
    missing += missing_calls(Model.save_base, ("pre_save", "post_save"), "Model.save_base")
    return missing


@register(
    "django-one-hop",
    "Django",
    "an event POST's answer, p50 2.24x with 1,000 viewers and 1.24x with none (docs/CAPACITY.md)",
)
def _django_one_hop() -> list[str]:
    """``polo/handler.py``: Django's middleware chain built as under WSGI (``load_middleware(is_async=
    False)``) and the chain the handler keeps (``_middleware_chain``) run in one hop to the sync
    thread, instead of a hop for each middleware's request and response."""
    from django.core.handlers.asgi import ASGIHandler
    from django.core.handlers.base import BaseHandler

    missing = missing_parameters(BaseHandler.load_middleware, ("is_async",), "BaseHandler.load_middleware")
    missing += missing_assigned(BaseHandler, ("_middleware_chain",))
    missing += missing_calls(BaseHandler.get_response_async, ("_middleware_chain",), "BaseHandler.get_response_async")
    missing += missing_attributes(ASGIHandler, ("get_response_async",), "ASGIHandler")
    return missing
