"""Python SDK for the Casino Gaming Integration Service operator API (v3).

    import casino_gaming

    client = casino_gaming.Client("cgs_live_...", base_url="https://<ref>.supabase.co/functions/v1")
    session = client.sessions.create(player_id="player-1", game_id="pragmatic-play:vs20olympgate",
                                     currency="EUR")
    for game in client.games.list(limit=100):
        ...
"""

from __future__ import annotations

from . import seamless, types, webhooks
from ._client import DEFAULT_BASE_URL, Client
from ._exceptions import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    AuthenticationError,
    BadRequestError,
    CasinoGamingError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    UnprocessableEntityError,
    WebhookVerificationError,
)
from ._pagination import CursorPage
from ._resources import NOT_GIVEN, NotGiven
from ._version import __version__

__all__ = [
    "__version__",
    "Client",
    "DEFAULT_BASE_URL",
    "CursorPage",
    "NOT_GIVEN",
    "NotGiven",
    "CasinoGamingError",
    "ApiError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "UnprocessableEntityError",
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
    "ApiConnectionError",
    "ApiTimeoutError",
    "WebhookVerificationError",
    "seamless",
    "types",
    "webhooks",
]
