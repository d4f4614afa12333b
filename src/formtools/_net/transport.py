"""Connections that go only where the guard allowed, and never outlive the fetch's deadline.

httpcore opens every connection through a *network backend*. The backends here

- resolve the host once (in a worker thread, bounded by the deadline: a hung resolver cannot
  hold a fetch), have :func:`~formtools._net.guard.checked` judge every address, and connect to
  one of those numeric addresses — no second lookup, so DNS rebinding has nothing to rebind.
  TLS still runs against the host *name*: httpcore passes it to ``start_tls`` as the SNI name,
  and the certificate is verified for it.
- wrap each stream so that every connect, TLS handshake, read and write waits at most until
  the current fetch's deadline. Operating-system timeouts are per call; this makes them one
  budget for the whole fetch, so a server that trickles a byte at a time is cut at the deadline.

The deadline of the fetch in progress lives in a context variable: a pooled connection reused
by a later fetch obeys that fetch's deadline, and concurrent asyncio tasks each see their own.
"""

from __future__ import annotations

import contextvars
import ssl
import threading
import time
from collections.abc import Iterable
from typing import Any

import anyio
import httpcore

from formtools._net.guard import Target, checked, connect_address, resolved
from formtools._net.head import HeadReader

__all__ = [
    "CLOCK",
    "AsyncGuardedBackend",
    "Clock",
    "GuardedBackend",
    "resolve_bounded",
]

# A write hands the kernel at most this much at once, so that the deadline is looked at again
# between pieces even when a server reads slowly.
_WRITE_PIECE = 64 * 1024


class Clock:
    """A deadline ``seconds`` from its creation, on the monotonic clock: of one fetch, or of
    every fetch a whole call makes (``scope``, which a timeout's message names)."""

    def __init__(self, seconds: float, scope: str = "fetch") -> None:
        self.seconds = seconds
        self.scope = scope
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return self.end - time.monotonic()


CLOCK: contextvars.ContextVar[Clock | None] = contextvars.ContextVar("formtools_net_clock", default=None)


def _within(timeout: float | None, error: type[Exception]) -> float | None:
    """``timeout`` cut to what is left of the current fetch's deadline; ``error`` when nothing
    is left."""
    clock = CLOCK.get()
    if clock is None:
        return timeout
    left = clock.left()
    if left <= 0:
        raise error(f"the deadline of {clock.seconds:g} s has passed")
    return left if timeout is None else min(timeout, left)


# --- threads ----------------------------------------------------------------------------------


class GuardedStream(httpcore.NetworkStream):
    """A stream whose every operation ends by the fetch's deadline, each answer's head read as
    Chromium reads it (:attr:`heads`)."""

    def __init__(self, inner: httpcore.NetworkStream, *, tls: bool = False) -> None:
        self._inner = inner
        self.heads = HeadReader(cryptographic=tls)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        while not self.heads.body_ended:
            data = self._inner.read(max_bytes, _within(timeout, httpcore.ReadTimeout))
            given = self.heads.feed(data)
            if given or not data:
                return given
        return b""  # the end of a chunked body: h11 reads the body to this end

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.heads.request_sent()
        for start in range(0, len(buffer), _WRITE_PIECE):
            piece = buffer[start : start + _WRITE_PIECE]
            self._inner.write(piece, _within(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname, _within(timeout, httpcore.ConnectTimeout))
        return GuardedStream(inner, tls=True)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


def resolve_bounded(host: str, port: int, timeout: float | None) -> list[Target]:
    """:func:`resolved` in a daemon thread, waited for at most ``timeout`` seconds: a resolver
    that hangs keeps its thread, not the fetch."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(resolved(host, port))
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
            outcome.append(error)

    worker = threading.Thread(target=run, name="formtools-resolve", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        raise httpcore.ConnectTimeout(f"resolving {host} took longer than the deadline")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    targets: list[Target] = outcome[0]
    return targets


def _lookup_failed(host: str, error: OSError) -> httpcore.ConnectError:
    return httpcore.ConnectError(f"cannot resolve {host}: {error.strerror or error}")


class GuardedBackend(httpcore.NetworkBackend):
    """httpcore's synchronous backend, connecting only to addresses the guard checked."""

    def __init__(self, *, allow_private: bool, trusted: frozenset[tuple[str, int]] = frozenset()) -> None:
        self.allow_private = allow_private
        self.trusted = trusted
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        try:
            found = resolve_bounded(host, port, _within(timeout, httpcore.ConnectTimeout))
        except OSError as error:
            raise _lookup_failed(host, error) from None
        allow = self.allow_private or (host, port) in self.trusted
        targets = checked(host, found, allow_private=allow)
        failure: Exception | None = None
        for target in targets:  # every one of them was checked; the first that answers wins
            try:
                stream = self._inner.connect_tcp(
                    connect_address(target),
                    port,
                    _within(timeout, httpcore.ConnectTimeout),
                    local_address,
                    socket_options,
                )
            except httpcore.ConnectError as error:
                failure = error
                continue
            return GuardedStream(stream)
        assert failure is not None
        raise failure

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("the guarded fetch connects to TCP addresses only")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


# --- asyncio and trio (through anyio) ---------------------------------------------------------


class AsyncGuardedStream(httpcore.AsyncNetworkStream):
    """An async stream whose every operation ends by the fetch's deadline, each answer's head
    read as Chromium reads it (:attr:`heads`)."""

    def __init__(self, inner: httpcore.AsyncNetworkStream, *, tls: bool = False) -> None:
        self._inner = inner
        self.heads = HeadReader(cryptographic=tls)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        while not self.heads.body_ended:
            data = await self._inner.read(max_bytes, _within(timeout, httpcore.ReadTimeout))
            given = self.heads.feed(data)
            if given or not data:
                return given
        return b""  # the end of a chunked body: h11 reads the body to this end

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.heads.request_sent()
        for start in range(0, len(buffer), _WRITE_PIECE):
            piece = buffer[start : start + _WRITE_PIECE]
            await self._inner.write(piece, _within(timeout, httpcore.WriteTimeout))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        inner = await self._inner.start_tls(
            ssl_context, server_hostname, _within(timeout, httpcore.ConnectTimeout)
        )
        return AsyncGuardedStream(inner, tls=True)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's anyio backend, connecting only to addresses the guard checked."""

    def __init__(self, *, allow_private: bool, trusted: frozenset[tuple[str, int]] = frozenset()) -> None:
        self.allow_private = allow_private
        self.trusted = trusted
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            with anyio.fail_after(_within(timeout, httpcore.ConnectTimeout)):
                # the thread is abandoned, not waited for, when the deadline passes
                found = await anyio.to_thread.run_sync(resolved, host, port, abandon_on_cancel=True)
        except TimeoutError:
            raise httpcore.ConnectTimeout(f"resolving {host} took longer than the deadline") from None
        except OSError as error:
            raise _lookup_failed(host, error) from None
        allow = self.allow_private or (host, port) in self.trusted
        targets = checked(host, found, allow_private=allow)
        failure: Exception | None = None
        for target in targets:
            try:
                stream = await self._inner.connect_tcp(
                    connect_address(target),
                    port,
                    _within(timeout, httpcore.ConnectTimeout),
                    local_address,
                    socket_options,
                )
            except httpcore.ConnectError as error:
                failure = error
                continue
            return AsyncGuardedStream(stream)
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("the guarded fetch connects to TCP addresses only")

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(seconds)
