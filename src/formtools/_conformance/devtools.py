"""A DevTools connection of the oracle's own: a minimal WebSocket client that keeps the
browser's JSON text, so that key order survives (Playwright's driver parses every message in
JavaScript, which reorders integer-like keys)."""

from __future__ import annotations

import base64
import itertools
import json
import os
import socket
import struct
from typing import Any

__all__ = ["DevTools", "DevToolsError"]


class DevToolsError(RuntimeError):
    """The DevTools connection failed or a command was refused."""


# --- a DevTools connection that keeps the browser's JSON text ---------------------------------


class DevTools:
    """A minimal blocking WebSocket client for the browser's DevTools endpoint.

    Only what the oracle needs: send a command, read until its reply, and hand back the events
    that arrived meanwhile. Messages are parsed by Python's ``json``, which keeps key order.
    """

    def __init__(self, port: int, path: str, timeout: float = 30.0) -> None:
        self._socket = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self._buffer = bytearray()
        self._ids = itertools.count(1)
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        self._socket.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode("ascii")
        )
        while b"\r\n\r\n" not in self._buffer:
            self._buffer += self._receive_some()
        head, _, rest = bytes(self._buffer).partition(b"\r\n\r\n")
        self._buffer = bytearray(rest)
        if not head.startswith((b"HTTP/1.1 101", b"HTTP/1.0 101")):
            raise DevToolsError(f"DevTools refused the WebSocket: {head.splitlines()[0]!r}")

    def close(self) -> None:
        self._socket.close()

    def command(
        self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Send a command; return its result and the events received before the reply."""
        message: dict[str, Any] = {"id": next(self._ids), "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        self._send(0x1, json.dumps(message).encode("utf-8"))
        events = []
        while True:
            reply: dict[str, Any] = json.loads(self._receive_message())
            if reply.get("id") != message["id"]:
                events.append(reply)
            elif "error" in reply:
                raise DevToolsError(f"DevTools {method}: {reply['error'].get('message')}")
            else:
                return reply["result"], events

    def _send(self, opcode: int, payload: bytes) -> None:
        # A client masks every frame (RFC 6455 5.3).
        size = len(payload)
        if size < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self._socket.sendall(header + mask + masked)

    def _receive_message(self) -> bytes:
        parts: list[bytes] = []
        while True:
            first, second = self._receive_exactly(2)
            opcode, size = first & 0x0F, second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", self._receive_exactly(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", self._receive_exactly(8))
            payload = self._receive_exactly(size)  # a server never masks
            if opcode == 0x8:
                raise DevToolsError("DevTools closed the connection")
            if opcode == 0x9:
                self._send(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts)

    def _receive_exactly(self, size: int) -> bytes:
        while len(self._buffer) < size:
            self._buffer += self._receive_some()
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    def _receive_some(self) -> bytes:
        data = self._socket.recv(1 << 16)
        if not data:
            raise DevToolsError("DevTools closed the connection")
        return data


