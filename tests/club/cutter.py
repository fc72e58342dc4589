"""A TCP relay between one board and the broker that the test can cut, like a home's
internet going down: every connection through it is dropped at once and new ones are
refused until it is mended. TLS passes through it untouched (it relays bytes)."""

from __future__ import annotations

import contextlib
import socket
import threading


class Cutter:
    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self.listener = socket.create_server((host, 0))
        self.port: int = self.listener.getsockname()[1]
        self.cut = threading.Event()
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.cuts = 0
        self.refused = 0  # connections refused while cut (a board trying again)
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True, name="cutter").start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut.is_set():
                client.close()
                self.refused += 1
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def cut_now(self) -> None:
        """The link goes down: open connections dropped, new ones refused."""
        self.cut.set()
        self.cuts += 1
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def mend(self) -> None:
        self.cut.clear()

    def close(self) -> None:
        self._stop.set()
        self.cut_now()
        self.listener.close()
