"""The pages of a URL list, fetched concurrently (``formtools batch --urls``).

Its own module so that a batch over files and archives never imports the HTTP client or asyncio.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from formtools._net import AsyncFetcher, FetchError, FetchPolicy, TooLarge

from formtools._crawl.pages import FetchOptions, Page, Unreadable
from formtools._parse.sources import is_url
from formtools.errors import shown

__all__ = ["fetched"]

_END = object()


def fetched(
    listing: Path, done: set[tuple[str, str]], options: FetchOptions
) -> Iterator[Page | Unreadable]:
    """The pages of a URL list, fetched by an asyncio loop in a thread, in completion order.

    The hand-over queue is bounded, so fetching runs at most a few pages ahead of extraction.
    """
    handover: queue.Queue[Any] = queue.Queue(maxsize=options.concurrency)

    def fetch_all() -> None:
        try:
            asyncio.run(_fetch_all(listing, done, options, handover))
        except BaseException as error:  # raised again in the consuming thread
            handover.put(error)
        handover.put(_END)

    threading.Thread(target=fetch_all, name="formtools-fetch", daemon=True).start()
    while (item := handover.get()) is not _END:
        if isinstance(item, BaseException):
            raise item
        yield item


async def _fetch_all(
    listing: Path, done: set[tuple[str, str]], options: FetchOptions, handover: queue.Queue[Any]
) -> None:
    slots = asyncio.Semaphore(options.concurrency)
    hosts: defaultdict[str, asyncio.Semaphore] = defaultdict(
        lambda: asyncio.Semaphore(options.per_host)
    )
    policy = FetchPolicy(timeout=options.timeout, max_bytes=options.max_bytes)
    async with AsyncFetcher(policy, max_connections=options.concurrency) as client:

        async def one(url: str, host: str) -> None:
            try:
                async with hosts[host]:
                    item = await _fetch(client, url, options.max_bytes)
                await asyncio.to_thread(handover.put, item)
            finally:
                slots.release()

        tasks: set[asyncio.Task[None]] = set()
        with listing.open("rb") as lines:
            for number, line in enumerate(lines, 1):
                url, problem = _listed_url(line, number)
                if not url or url.startswith("#") or ("url", shown(url)) in done:
                    continue
                if problem is None:
                    try:
                        host = urlsplit(url).netloc.lower()
                    except ValueError as error:  # an unbalanced bracket in the host, a bad port
                        problem = f"{url}: not a valid URL ({error})"
                if problem is not None:
                    await asyncio.to_thread(handover.put, Unreadable("url", url, problem))
                    continue
                await slots.acquire()
                task = asyncio.create_task(one(url, host))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)


def _listed_url(line: bytes, number: int) -> tuple[str, str | None]:
    """The URL on a line of the list, and why it cannot be fetched if it cannot be read: a
    line that is not UTF-8 is named with its bad bytes escaped (``\\xe9``), the same name on
    every run, so ``--resume`` finds its error line."""
    try:
        return line.decode("utf-8").strip(), None
    except UnicodeDecodeError:
        url = line.decode("utf-8", "backslashreplace").strip()
        return url, f"{url}: line {number} of the URL list is not UTF-8"


async def _fetch(client: AsyncFetcher, url: str, max_bytes: int) -> Page | Unreadable:
    """One page through the guarded, bounded fetch (``timeout`` is the whole fetch's)."""
    if not is_url(url):
        return Unreadable("url", url, f"{url}: not an http(s) URL")
    try:
        response = await client.fetch("GET", url, headers={"Accept": "text/html,*/*;q=0.8"})
    except TooLarge:
        return Unreadable("url", url, f"{url}: larger than {max_bytes} bytes")
    except FetchError as error:
        return Unreadable("url", url, str(error))
    except Exception as error:  # a URL the client cannot even send: one page, not the batch
        return Unreadable("url", url, f"{url}: cannot fetch: {type(error).__name__}: {error}")
    if response.status >= 400:
        return Unreadable("url", url, f"{url}: HTTP {response.status}")
    return Page("url", url, response.body, response.url, response.content_type)
