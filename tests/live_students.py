"""Students without browsers, for tests that need many: each one a tab over Streamlit's own websocket protocol
(bench/live_class.Client: what a browser sends, without its rendering), opening a class's join link with the address
it comes from as X-Forwarded-For (this machine is a trusted proxy, as nginx on it is: the app, and nginx in front of
it, take the header from it), or through a proxy that writes its own."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor


def seat(base_url: str, code: str, addresses: list[str], timeout: float = 120.0, stagger: float = 0.05) -> list[str]:
    """One student per address ('' for none) opens `base_url/?join=code`, one every `stagger` seconds; returns what
    each one's live-class bar said last ('following' once seated; what a refusal said otherwise is in the page)."""
    from bench.live_class import connect

    ws = base_url.replace("http://", "ws://")

    async def one(i: int, address: str) -> str:
        await asyncio.sleep(i * stagger)
        client, reader = await connect(ws, f"student{i}", address)
        try:
            await client.run(query=f"join={code}")
            deadline = time.monotonic() + timeout
            while client.bar != "following" and time.monotonic() < deadline and not client.errors:
                await asyncio.sleep(0.1)
            return client.bar if not client.errors else f"error: {client.errors[0]}"
        finally:
            await client.ws.close()
            reader.cancel()

    async def all_of_them() -> list[str]:
        return list(await asyncio.gather(*(one(i, a) for i, a in enumerate(addresses))))

    # in a thread of its own: a test that drives Chromium holds this thread's event loop (playwright's sync API)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, all_of_them()).result()
