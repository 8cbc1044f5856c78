"""A test HTTP server on a free loopback port, served from a thread for the duration of a block."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from typing import TypeVar

Server = TypeVar("Server", bound=ThreadingHTTPServer)


@contextmanager
def serving(httpd: Server) -> Iterator[Server]:
    # A short poll interval: shutdown() waits for the loop's next poll.
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)
