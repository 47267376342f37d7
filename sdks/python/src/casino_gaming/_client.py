"""The client: one object per API key, sending each call over urllib with a per-attempt timeout and
retrying failures that are safe to retry."""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import os
import platform
import random
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from decimal import Decimal
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ._exceptions import ApiConnectionError, ApiError, ApiTimeoutError, CasinoGamingError, error_for
from ._model import to_json_value
from ._version import __version__

__all__ = ["Client", "DEFAULT_BASE_URL", "retry_delay", "parse_retry_after"]

log = logging.getLogger("casino_gaming")

# The server URL the OpenAPI document names for a local stack; hosted, it is
# {SUPABASE_URL}/functions/v1. Calls go to {base_url}/v3/...
DEFAULT_BASE_URL = "http://127.0.0.1:54321/functions/v1"

# An API key goes into a header: visible ASCII only, so it can never split or forge a header.
_HEADER_SAFE = re.compile(r"^[\x21-\x7e]+$")

_READ_CHUNK = 65536


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After (RFC 9110) in seconds: delay-seconds or an HTTP-date; None when absent or
    unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retry_delay(
    retry: int,
    *,
    initial: float,
    maximum: float,
    retry_after: Optional[float] = None,
    random_fraction: Callable[[], float] = random.random,
) -> Optional[float]:
    """The wait before retry number ``retry`` (0 for the first), or None when the server asked for a
    longer wait than ``maximum`` allows (then the call fails rather than retry too soon).

    Exponential backoff with "equal jitter": half of each step fixed, half random, so clients that
    failed together spread out; never sooner than the server's Retry-After."""
    step = min(maximum, initial * (2 ** retry))
    delay = step / 2 + random_fraction() * (step / 2)
    if retry_after is not None:
        if retry_after > maximum:
            return None
        delay = max(delay, retry_after)
    return min(delay, maximum)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # A redirect would carry the API key to wherever it points: the API never redirects, so a 3xx
    # is returned as an error instead.
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


def _json_default(value: Any) -> Any:
    converted = to_json_value(value)
    if converted is value:
        raise TypeError(f"{type(value).__name__} cannot be sent as JSON")
    return converted


def _is_timeout(error: BaseException) -> bool:
    reason = getattr(error, "reason", None)
    return isinstance(error, socket.timeout) or isinstance(reason, socket.timeout)


def _socket_of(response: Any) -> Optional[socket.socket]:
    """The socket under a urllib answer, to bound each read by the time the attempt has left."""
    reader = getattr(response, "fp", None)
    if isinstance(reader, http.client.HTTPResponse):
        reader = reader.fp
    raw = getattr(reader, "raw", None)
    sock = getattr(raw, "_sock", None)
    return sock if isinstance(sock, socket.socket) else None


class Client:
    """The operator API, v3.

    ``api_key`` is your key (``cgs_live_...``, or ``cgs_test_...`` for test mode; by default the
    ``CGS_API_KEY`` environment variable). ``base_url`` is the server URL (by default ``CGS_API_URL``,
    else the local stack's). ``timeout`` bounds each attempt in seconds, answer included;
    ``max_retries`` is how many times a failure that is safe to retry is retried, waiting between
    ``initial_retry_delay`` and ``max_retry_delay`` seconds (exponential backoff with jitter, never
    sooner than the server's Retry-After)."""

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        max_retries: int = 2,
        timeout: float = 15.0,
        initial_retry_delay: float = 0.5,
        max_retry_delay: float = 30.0,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        # Neither value is quoted in these errors: a key put in the wrong argument would reach logs.
        api_key = api_key if api_key is not None else os.environ.get("CGS_API_KEY")
        if not api_key:
            raise ValueError("api_key is missing: pass it, or set CGS_API_KEY")
        if not _HEADER_SAFE.match(api_key):
            raise ValueError("api_key holds characters an HTTP header cannot carry")
        base_url = (base_url or os.environ.get("CGS_API_URL") or DEFAULT_BASE_URL).rstrip("/")
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("base_url must be an absolute http(s) URL")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError("max_retries must be a whole number >= 0")
        for name, value in (
            ("timeout", timeout),
            ("initial_retry_delay", initial_retry_delay),
            ("max_retry_delay", max_retry_delay),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a number of seconds >= 0")
        if timeout <= 0:
            raise ValueError("timeout must be above 0")

        self.api_key = api_key
        self.base_url = base_url
        self.max_retries = max_retries
        self.timeout = float(timeout)
        self.initial_retry_delay = float(initial_retry_delay)
        self.max_retry_delay = float(max_retry_delay)
        self._default_headers = dict(default_headers or {})
        self._opener = urllib.request.build_opener(_NoRedirects())
        # Replaceable in tests, so that backoff is observed without waiting for it.
        self._sleep: Callable[[float], None] = time.sleep

        from ._resources import (
            Currencies,
            Discovery,
            Events,
            FreeRoundCampaigns,
            FreeRoundGrants,
            Games,
            Jurisdictions,
            Players,
            Reports,
            Providers,
            Rounds,
            Sandbox,
            Sessions,
            SportsbookBets,
            Transactions,
            Wallets,
            WalletSettingsResource,
            WebhookEndpoints,
        )

        self.sessions = Sessions(self)
        self.games = Games(self)
        self.providers = Providers(self)
        self.currencies = Currencies(self)
        self.jurisdictions = Jurisdictions(self)
        self.wallets = Wallets(self)
        self.transactions = Transactions(self)
        self.rounds = Rounds(self)
        self.free_round_campaigns = FreeRoundCampaigns(self)
        self.free_round_grants = FreeRoundGrants(self)
        self.sportsbook_bets = SportsbookBets(self)
        self.reports = Reports(self)
        self.wallet_settings = WalletSettingsResource(self)
        self.webhook_endpoints = WebhookEndpoints(self)
        self.events = Events(self)
        self.players = Players(self)
        self.sandbox = Sandbox(self)
        self.discovery = Discovery(self)

    def __repr__(self) -> str:
        # The key stays out of reprs, which end up in logs and tracebacks.
        return f"Client(base_url={self.base_url!r})"

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        """Nothing is held open between calls; kept so the client works as a context manager."""

    # -- sending ------------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        repeatable: bool = False,
        accept: str = "application/json",
    ) -> Any:
        """Sends one call (``path`` below the base URL, like ``/v3/sessions``) and returns its JSON.

        ``repeatable`` says the call may run twice without harm (a read, a replacement, or a create
        under an Idempotency-Key the API honours): only such calls are retried after a network
        failure or a timeout, where the first attempt may have taken effect. Any call is retried
        when the API says the failure left nothing done (a problem with ``retryable: true``, a 429).
        ``accept`` asks for another media type than JSON (``text/csv``): a success is then its bytes."""
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None
        headers = {
            "Accept": accept,
            "Authorization": f"Bearer {self.api_key}",
            "User-Agent": f"casino-gaming-python/{__version__} Python/{platform.python_version()}",
            **self._default_headers,
        }
        if body is not None:
            data = json.dumps(body, separators=(",", ":"), default=_json_default).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
            repeatable = True

        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):
            extra = {"cgs_attempt": attempt, "cgs_idempotency_key": idempotency_key, "cgs_path": path}
            log.debug("%s %s: attempt %d of %d", method, path, attempt, attempts, extra=extra)
            try:
                status, answer_headers, raw = self._send(method, url, data, headers)
            except ApiConnectionError as failure:
                if not repeatable or attempt == attempts:
                    raise
                wait = retry_delay(
                    attempt - 1, initial=self.initial_retry_delay, maximum=self.max_retry_delay
                )
                if wait is None:
                    raise
                self._before_retry(method, path, wait, str(failure), extra)
                continue
            if 200 <= status < 300:
                return self._json(method, path, raw) if accept == "application/json" else raw
            error = error_for(status, raw, answer_headers)
            if attempt == attempts or not self._worth_retrying(error, repeatable):
                raise error
            wait = retry_delay(
                attempt - 1,
                initial=self.initial_retry_delay,
                maximum=self.max_retry_delay,
                retry_after=parse_retry_after(error.retry_after),
            )
            if wait is None:
                raise error
            self._before_retry(method, path, wait, str(error).split("\n")[0], extra)
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _json(method: str, path: str, raw: bytes) -> Any:
        if not raw.strip():
            return None
        try:
            return json.loads(raw.decode("utf-8"), parse_float=Decimal)
        except (UnicodeDecodeError, ValueError):
            # A success that is not JSON came from something other than the API (a proxy, say).
            raise CasinoGamingError(f"{method} {path}: the answer is not JSON") from None

    @staticmethod
    def _worth_retrying(error: ApiError, repeatable: bool) -> bool:
        # The write may have been applied: only the same request again under the same key is safe.
        if error.code == "outcome_unknown":
            return repeatable
        if error.retryable or error.status == 429:
            return True
        # A gateway's bad-gateway or timeout answer may come after the call took effect: repeated
        # only where that does no harm.
        return repeatable and error.problem is None and error.status in (502, 504)

    def _before_retry(
        self, method: str, path: str, wait: float, reason: str, extra: Dict[str, Any]
    ) -> None:
        log.info("%s %s failed (%s); retrying in %.2f s", method, path, reason, wait, extra=extra)
        self._sleep(wait)

    def _send(
        self, method: str, url: str, data: Optional[bytes], headers: Mapping[str, str]
    ) -> Tuple[int, Dict[str, str], bytes]:
        request = urllib.request.Request(url, data=data, headers=dict(headers), method=method)
        deadline = time.monotonic() + self.timeout
        try:
            response: Any = self._opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as answered:
            response = answered
        except (urllib.error.URLError, OSError, http.client.HTTPException) as failure:
            raise self._connection_error(failure) from None
        try:
            with response:
                status = response.status if hasattr(response, "status") else response.code
                answer_headers = {name.lower(): value for name, value in response.headers.items()}
                raw = self._read(response, deadline)
        except (OSError, http.client.HTTPException) as failure:
            raise self._connection_error(failure) from None
        return int(status), answer_headers, raw

    def _read(self, response: Any, deadline: float) -> bytes:
        # Each read may take only what is left of the attempt's time, so an answer trickling in
        # cannot hold a call past its timeout.
        sock = _socket_of(response)
        chunks = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("the answer took longer than the timeout")
            if sock is not None:
                try:
                    sock.settimeout(left)
                except OSError:
                    # The answer is complete and its connection already closed.
                    sock = None
            # read1 returns what one receive brings, so the deadline is checked between receives.
            reader = getattr(response, "read1", None) or response.read
            chunk = reader(_READ_CHUNK)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def _connection_error(self, failure: BaseException) -> ApiConnectionError:
        if _is_timeout(failure):
            return ApiTimeoutError(f"no answer within {self.timeout:g} s", cause=failure)
        reason = getattr(failure, "reason", failure)
        return ApiConnectionError(f"the API could not be reached: {reason}", cause=failure)
