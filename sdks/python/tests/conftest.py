"""Shared fixtures: a scripted local HTTP server standing in for the API in unit tests, and the
OpenAPI document (the contract)."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union

import pytest

import casino_gaming

PROJECT = Path(__file__).resolve().parent.parent
DOCUMENT = PROJECT.parent.parent / "supabase" / "functions" / "v3" / "openapi.json"


def load_openapi() -> Dict[str, Any]:
    """The contract: the repository's document, or the one CGS_OPENAPI names."""
    path = Path(os.environ.get("CGS_OPENAPI", DOCUMENT))
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def openapi() -> Dict[str, Any]:
    return load_openapi()


class Recorded:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes):
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


class Reply:
    """One scripted answer: a status, a JSON body and headers; or ``drop`` (close the connection
    without answering), or ``delay`` seconds of silence before answering, or ``trickle``: the body
    one byte per ``trickle`` seconds."""

    def __init__(
        self,
        status: int = 200,
        body: Any = None,
        headers: Optional[Dict[str, str]] = None,
        *,
        drop: bool = False,
        delay: float = 0.0,
        trickle: float = 0.0,
    ):
        self.status = status
        self.body = body
        self.headers = headers or {}
        self.drop = drop
        self.delay = delay
        self.trickle = trickle


def problem(status: int, code: str, *, retryable: bool = False, **extra: Any) -> Dict[str, Any]:
    return {
        "type": f"https://docs.cgs.example/problems/{code}",
        "title": code.replace("_", " "),
        "status": status,
        "detail": f"{code} happened.",
        "code": code,
        "retryable": retryable,
        **extra,
    }


class FakeApi:
    """A local server answering from a script (a list of Reply, or a function of the request)."""

    def __init__(self) -> None:
        self.requests: List[Recorded] = []
        self.script: Union[List[Reply], Callable[[Recorded], Reply]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                recorded = Recorded(
                    self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body
                )
                fake.requests.append(recorded)
                reply = fake.next_reply(recorded)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                # Bytes are sent as they are (a CSV), anything else as JSON.
                if isinstance(reply.body, bytes):
                    payload = reply.body
                else:
                    payload = b"" if reply.body is None else json.dumps(reply.body).encode()
                problem_json = isinstance(reply.body, dict) and "code" in reply.body and reply.status >= 400
                self.send_response(reply.status)
                if "content-type" not in {name.lower() for name in reply.headers}:
                    self.send_header(
                        "Content-Type", "application/problem+json" if problem_json else "application/json"
                    )
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Connection", "close")
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if reply.trickle:
                    for byte in payload:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(reply.trickle)
                else:
                    self.wfile.write(payload)
                self.close_connection = True

            def _serve_quietly(self) -> None:
                # A client that gave up (a timeout under test) closes its end: not a failure here.
                try:
                    self._serve()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve_quietly

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/functions/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def next_reply(self, request: Recorded) -> Reply:
        if callable(self.script):
            return self.script(request)
        if not self.script:
            return Reply(500, problem(500, "internal_error"))
        return self.script.pop(0)

    def client(self, **options: Any) -> casino_gaming.Client:
        options.setdefault("max_retries", 2)
        options.setdefault("timeout", 5)
        client = casino_gaming.Client("cgs_live_unit-test-key", base_url=self.url, **options)
        # Backoff is recorded, not waited for.
        client.waits = []  # type: ignore[attr-defined]
        client._sleep = client.waits.append  # type: ignore[attr-defined]
        return client

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_api():
    api = FakeApi()
    yield api
    api.close()


def closed_port() -> int:
    """A local port nothing listens on: connecting to it fails at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
