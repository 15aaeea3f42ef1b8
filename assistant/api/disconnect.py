"""A request whose client has left → the route cancelled, so it gives up its place in the queue.

Streaming responses notice a client that leaves on their own (Starlette listens while it
streams). A plain JSON route does not: its answer would still be computed in turn, behind the
admission cap, for nobody, while the users after it wait. This middleware listens once the body
has been read and cancels the route if the client disconnects before the response starts. An
answer already being computed finishes its worker thread (the slot is freed after it); waits
for a conversation's turn or an answer slot end at once. The question stays stored, as on the
streaming routes.
"""

from __future__ import annotations

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class CancelOnDisconnect:
    """Cancels a POST route when its client disconnects before the response starts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body_read = anyio.Event()
        started = False

        async def receive_body() -> Message:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_read.set()
            return message

        async def send_started(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        async with anyio.create_task_group() as group:

            async def watch() -> None:
                await body_read.wait()  # never read the body from under the route
                message = await receive()  # after the body: only a disconnect comes
                if message["type"] == "http.disconnect" and not started:
                    group.cancel_scope.cancel()

            group.start_soon(watch)
            await self.app(scope, receive_body, send_started)
            group.cancel_scope.cancel()
