"""The operator's side of seamless mode: the platform calls your wallet for each balance request, bet
(``debit``), win (``credit``) and rollback, signed as webhooks are (the OpenAPI document's
``webhooks.walletCall``). This module verifies such a call, parses it, and builds the answer the
platform expects.

    answer = casino_gaming.seamless.handle(request.body, request.headers, WALLET_SECRET, on_call)
    return Response(answer.body, status=answer.status, headers=answer.headers)

Rules of the contract your handler keeps: apply each ``transaction_id`` once and answer a repeat as
the first time; answer a rollback of a debit you never saw with success, and refuse that debit if
it comes later; answer within the platform's wallet timeout.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Dict, Mapping, Optional, Union

from ._exceptions import WebhookVerificationError
from ._model import parse_decimal
from .types import WalletCall
from .webhooks import DEFAULT_TOLERANCE, Now, Payload, Secrets, parse_json, verify_signature

__all__ = [
    "WalletCall",
    "WalletAnswer",
    "verify_call",
    "accept",
    "refuse",
    "handle",
    "WebhookVerificationError",
]

# The contract's Amount: a non-negative decimal string, no exponent, its digits and places bounded.
_AMOUNT = re.compile(r"^(0|[1-9][0-9]{0,15})(\.[0-9]{1,4})?$")
# A refusal's code as the platform reads one; any other is taken as a failed call, not a refusal.
_CODE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_FOUR_PLACES = Decimal("0.0001")

_REQUIRED = ("action", "session_id", "player_id", "game_id", "currency")


@dataclass(frozen=True)
class WalletAnswer:
    """What to send back: ``status``, ``headers`` and the JSON ``body`` as bytes."""

    status: int
    body: bytes
    headers: Dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"), parse_float=Decimal)


def _balance(value: Union[Decimal, int, str]) -> str:
    """A balance as the contract's Amount, written with four places as the platform writes money.
    A value it cannot carry is refused here rather than rounded or sent: the platform would take
    such an answer for a failed call."""
    if isinstance(value, float) or isinstance(value, bool):
        raise TypeError("a balance must be a Decimal, an int or a decimal string, never a float")
    number = parse_decimal(value)
    if number < 0:
        raise ValueError("the contract's balance cannot be negative")
    if number != number.quantize(_FOUR_PLACES):
        raise ValueError("a balance has at most four decimal places")
    text = format(abs(number.quantize(_FOUR_PLACES)), "f")
    if not _AMOUNT.match(text):
        raise ValueError("a balance has at most sixteen digits before the point")
    return text


def _json(body: Dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode("utf-8")


def accept(balance: Union[Decimal, int, str]) -> WalletAnswer:
    """Applied (or applied before): 200 with the player's balance after it."""
    return WalletAnswer(200, _json({"balance": _balance(balance)}))


def refuse(
    code: str,
    *,
    balance: Union[Decimal, int, str, None] = None,
    status: int = 422,
) -> WalletAnswer:
    """Refused, nothing applied: a 4xx with a ``code`` (``insufficient_funds``, ...) and, where
    known, the balance. Refuse debits only: a credit or rollback refused is sent again until it
    is accepted."""
    if not isinstance(code, str) or not _CODE.match(code):
        raise ValueError("a refusal code is lower-case letters, digits and underscores")
    if not 400 <= status <= 499:
        raise ValueError("a refusal is a 4xx status")
    body: Dict[str, Any] = {"code": code}
    if balance is not None:
        body["balance"] = _balance(balance)
    return WalletAnswer(status, _json(body))


def verify_call(
    payload: Payload,
    headers: Mapping[str, Any],
    secret_or_secrets: Secrets,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Now = None,
) -> WalletCall:
    """Verifies a wallet call's signature (the secret ``PUT /v3/wallet-settings`` answered, and
    the previous one during a rotation) and returns it typed: ``action``, the session's
    ``session_id``, ``player_id``, ``game_id`` and ``currency``, and, by action, ``transaction_id``,
    ``round_id``, ``amount`` (a Decimal), ``rolled_back_transaction_id``, ``round_closed``, and a
    sportsbook bet's ``bet_id``. Raises WebhookVerificationError."""
    verify_signature(payload, headers, secret_or_secrets, tolerance=tolerance, now=now)
    body = parse_json(payload)
    if not isinstance(body, dict):
        raise WebhookVerificationError("the body is not a wallet call")
    missing = [name for name in _REQUIRED if not isinstance(body.get(name), str)]
    if missing:
        raise WebhookVerificationError(f"the body is not a wallet call: no {', '.join(missing)}")
    try:
        return WalletCall.from_dict(body)
    except (TypeError, ValueError) as error:
        raise WebhookVerificationError(f"the body is not a wallet call: {error}") from None


Handler = Callable[[WalletCall], Union[WalletAnswer, Decimal, int, str]]


def handle(
    payload: Payload,
    headers: Mapping[str, Any],
    secret_or_secrets: Secrets,
    handler: Handler,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Now = None,
    on_rejected: Optional[Callable[[WebhookVerificationError], None]] = None,
) -> WalletAnswer:
    """Verifies the call and lets ``handler`` apply it. The handler returns the balance after it
    (a Decimal) or an answer (``refuse(...)``). A call that fails verification is refused with
    401 ``invalid_signature`` and never reaches the handler. An exception from the handler
    propagates: answer it with a 5xx, which the platform treats as no answer (a debit is then
    rolled back, a credit or rollback sent again)."""
    try:
        call = verify_call(payload, headers, secret_or_secrets, tolerance=tolerance, now=now)
    except WebhookVerificationError as rejected:
        if on_rejected is not None:
            on_rejected(rejected)
        return refuse("invalid_signature", status=401)
    result = handler(call)
    return result if isinstance(result, WalletAnswer) else accept(result)
