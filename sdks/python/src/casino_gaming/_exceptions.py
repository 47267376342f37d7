"""Errors, one class per kind of failure, so callers branch on types and stable codes, never on
message text. An answer that is not 2xx is an ApiError (a subclass per status) carrying the RFC 9457
problem body the API sends."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Dict, List, Mapping, Optional, Type

from ._model import parse_decimal
from .types import FieldError, Problem

__all__ = [
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
]


class CasinoGamingError(Exception):
    """Every error this SDK raises."""


class ApiError(CasinoGamingError):
    """The API answered with an error status. The problem's members are attributes: ``code`` is
    stable (``validation_failed``, ``invalid_api_key``, ...), ``errors`` lists each failing field of
    a 400 or 422, ``retryable`` says whether the same request sent again may succeed."""

    status: int
    code: Optional[str]
    title: Optional[str]
    detail: Optional[str]
    type: Optional[str]
    retryable: bool
    errors: List[FieldError]
    balance: Optional[Decimal]
    currency: Optional[str]
    #: ``invalid_settlement`` only: ``payout_above_potential`` or ``result_payout_mismatch``.
    reason: Optional[str]
    #: ``wallet_refused`` only: the code the operator's seamless wallet refused with.
    wallet_code: Optional[str]
    problem: Optional[Problem]
    body: Optional[Dict[str, Any]]
    headers: Dict[str, str]

    def __init__(
        self,
        status: int,
        body: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
        *,
        message: Optional[str] = None,
    ) -> None:
        self.status = status
        self.body = dict(body) if isinstance(body, Mapping) else None
        self.headers = {name.lower(): value for name, value in (headers or {}).items()}
        problem = self.body or {}
        self.code = _text(problem.get("code"))
        self.title = _text(problem.get("title"))
        self.detail = _text(problem.get("detail"))
        self.type = _text(problem.get("type"))
        # Without a problem body (a proxy's page, say) only the status can say it is worth retrying:
        # a rate limit or an unavailable service did not handle the request.
        retryable = problem.get("retryable")
        self.retryable = retryable if isinstance(retryable, bool) else status in (429, 503)
        self.errors = [
            FieldError.from_dict(error)
            for error in problem.get("errors") or []
            if isinstance(error, Mapping)
        ]
        self.balance = _decimal_or_none(problem.get("balance"))
        self.currency = _text(problem.get("currency"))
        self.reason = _text(problem.get("reason"))
        self.wallet_code = _text(problem.get("wallet_code"))
        self.problem = _problem_or_none(self.body)
        super().__init__(message or self._describe())

    def _describe(self) -> str:
        text = f"{self.status}"
        if self.code:
            text += f" {self.code}"
        if self.detail:
            text += f": {self.detail}"
        elif self.title:
            text += f": {self.title}"
        for error in self.errors:
            where = error.pointer or error.parameter or "?"
            text += f"\n  {where}: {error.code} ({error.detail})"
        return text

    @property
    def retry_after(self) -> Optional[str]:
        """The Retry-After header as sent, if any."""
        return self.headers.get("retry-after")


class BadRequestError(ApiError):
    """400: the request breaks a rule (``validation_failed``, ``invalid_parameters``, ...);
    ``errors`` names each failing field."""


class AuthenticationError(ApiError):
    """401: no API key, or one that does not work (``missing_api_key``, ``invalid_api_key``)."""


class PermissionDeniedError(ApiError):
    """403: allowed for no one in this situation (``player_restricted``, ``live_key``, ...)."""


class NotFoundError(ApiError):
    """404: no such object, or another client's (the two look the same)."""


class ConflictError(ApiError):
    """409: the object's state forbids it now (``idempotency_key_in_use``, ``rounds_open``, ...)."""


class UnprocessableEntityError(ApiError):
    """422: well-formed but refused (``reference_unavailable``, ``idempotency_key_reused``, ...);
    ``errors`` names each field at fault where there is one."""


class RateLimitError(ApiError):
    """429: too many requests; retried automatically after the server's Retry-After."""


class InternalServerError(ApiError):
    """5xx other than 503: a failure on the server's side."""


class ServiceUnavailableError(ApiError):
    """503: the service could not reach its database. ``service_unavailable``: nothing was written.
    ``outcome_unknown``: the request may have been applied; only the same request under the same
    Idempotency-Key or transaction_id is safe to send again (the client retries only those)."""


_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_for(status: int, raw: bytes, headers: Mapping[str, str]) -> ApiError:
    """The ApiError subclass for an answer's status, its problem body read where it is JSON."""
    body: Optional[Mapping[str, Any]] = None
    try:
        parsed = json.loads(raw.decode("utf-8"), parse_float=Decimal) if raw else None
        body = parsed if isinstance(parsed, Mapping) else None
    except (UnicodeDecodeError, ValueError):
        body = None
    kind = _BY_STATUS.get(status) or (InternalServerError if status >= 500 else ApiError)
    return kind(status, body, headers)


class ApiConnectionError(CasinoGamingError):
    """No answer came: the server could not be reached or the connection broke. Whether the request
    took effect is unknown, so only requests that are safe to repeat are retried."""

    retryable = True

    def __init__(self, message: str, *, cause: Optional[BaseException] = None) -> None:
        super().__init__(message)
        self.__cause__ = cause


class ApiTimeoutError(ApiConnectionError):
    """An attempt took longer than the client's ``timeout``."""


class WebhookVerificationError(CasinoGamingError):
    """A signed message (webhook delivery or wallet call) that must not be trusted: a missing
    header, no valid signature for any secret, a timestamp outside the tolerance, or a body that
    is not the JSON the contract describes."""


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def _decimal_or_none(value: Any) -> Optional[Decimal]:
    try:
        return None if value is None else parse_decimal(value)
    except (TypeError, ValueError):
        return None


def _problem_or_none(body: Optional[Mapping[str, Any]]) -> Optional[Problem]:
    if not body or not isinstance(body.get("status"), int) or not isinstance(body.get("code"), str):
        return None
    try:
        return Problem.from_dict(body)
    except (TypeError, ValueError):
        return None
