"""A loopback TCP proxy in front of a real service (PostgreSQL, Redis): the cable a fault test can pull.

`cut()` closes every connection passing through and refuses new ones (each is reset the moment it is accepted, so
the port stays ours and a client sees the service go away at once, as when a server stops); `restore()` lets
connections through again. The services themselves keep running for everybody else on the machine.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

_BUFFER = 64 * 1024


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset (SO_LINGER 0): the peer learns at once, as from a dead server, not after a timeout."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # shutdown() first: it wakes the pump thread blocked in recv() on this socket, which close() alone does not.
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    with suppress(OSError):
        sock.close()


class TcpProxy:
    """Forwards 127.0.0.1:`port` to `target`; see the module docstring."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._cut = False
        self._closed = False
        self.accepted = 0  # connections let through, for tests that want to see traffic went this way
        self._thread = threading.Thread(target=self._accept_loop, name=f"proxy:{self.port}", daemon=True)
        self._thread.start()

    @property
    def is_cut(self) -> bool:
        return self._cut

    def cut(self) -> None:
        """Drop every live connection and refuse new ones until `restore()`."""
        with self._lock:
            self._cut = True
            live, self._open = self._open, set()
        for sock in live:
            _reset(sock)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self.cut()
        self._closed = True
        with suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._thread.join(5)

    # -- internals --------------------------------------------------------------------------------------------------
    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # the listener was closed
            if self._cut:
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _reset(client)
                continue
            with self._lock:
                if self._cut:  # cut while connecting upstream
                    _reset(client)
                    _reset(upstream)
                    continue
                self._open.update((client, upstream))
                self.accepted += 1
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(_BUFFER):
                sink.sendall(data)
        except OSError:
            pass  # cut, or the other side went away
        # One side ended: end the pair, as a dropped connection does.
        with self._lock:
            mine = source in self._open or sink in self._open
            self._open.discard(source)
            self._open.discard(sink)
        if mine:
            _reset(source)
            _reset(sink)


@contextmanager
def proxy_to(host: str, port: int) -> Iterator[TcpProxy]:
    proxy = TcpProxy(host, port)
    try:
        yield proxy
    finally:
        proxy.close()
