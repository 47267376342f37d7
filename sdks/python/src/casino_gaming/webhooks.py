"""Verifying what the platform signs: webhook deliveries (and, through ``casino_gaming.seamless``,
wallet calls), signed with Standard Webhooks v1.

Each message carries ``webhook-id``, ``webhook-timestamp`` (seconds since the epoch) and
``webhook-signature``: space-separated ``v1,<base64>`` signatures, each an HMAC-SHA256 over
``{id}.{timestamp}.{body}`` with the secret (``whsec_`` + base64) of the endpoint. During a secret
rotation a message carries one signature per secret, so either secret verifies it.

    event = casino_gaming.webhooks.verify(request.body, request.headers, "whsec_...")
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import hashlib
import hmac
import json
import time
from decimal import Decimal
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from ._exceptions import WebhookVerificationError
from .types import Event

__all__ = [
    "verify",
    "verify_signature",
    "sign",
    "WebhookVerificationError",
    "DEFAULT_TOLERANCE",
]

# Seconds a message's timestamp may be from the receiver's clock, either way: past it, a captured
# message can no longer be replayed.
DEFAULT_TOLERANCE = 300

SECRET_PREFIX = "whsec_"

Payload = Union[bytes, bytearray, str]
Secrets = Union[str, Iterable[str]]
Now = Union[float, int, _dt.datetime, None]


def _key(secret: str) -> bytes:
    if not isinstance(secret, str) or not secret:
        raise ValueError("a signing secret is a non-empty string (whsec_...)")
    encoded = secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("a signing secret is whsec_ followed by base64") from None


def _keys(secrets: Secrets) -> List[bytes]:
    listed = [secrets] if isinstance(secrets, str) else list(secrets)
    if not listed:
        raise ValueError("at least one signing secret is needed")
    return [_key(secret) for secret in listed]


def _body_bytes(payload: Payload) -> bytes:
    if isinstance(payload, (bytes, bytearray)):
        return bytes(payload)
    if isinstance(payload, str):
        return payload.encode("utf-8")
    raise TypeError("the payload is the raw body: bytes or str, exactly as received")


def _headers(headers: Mapping[str, Any]) -> Dict[str, str]:
    # Frameworks spell header names in any case (Webhook-Id, webhook-id): compare them lower-cased.
    items = headers.items() if hasattr(headers, "items") else headers
    result: Dict[str, str] = {}
    for name, value in items:
        if isinstance(value, (list, tuple)):
            value = " ".join(str(part) for part in value)
        result[str(name).lower()] = str(value)
    return result


def _epoch(now: Now) -> float:
    if now is None:
        return time.time()
    if isinstance(now, _dt.datetime):
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        return now.timestamp()
    return float(now)


def _signature(key: bytes, message_id: str, timestamp: str, body: bytes) -> bytes:
    signed = message_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + body
    return hmac.new(key, signed, hashlib.sha256).digest()


def verify_signature(
    payload: Payload,
    headers: Mapping[str, Any],
    secret_or_secrets: Secrets,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Now = None,
) -> str:
    """Checks a message's signature and timestamp and returns its ``webhook-id`` (the same on every
    retry of one message: the receiver's idempotency key). Raises WebhookVerificationError.

    ``payload`` must be the body exactly as received: JSON parsed and written again is not what was
    signed. ``secret_or_secrets`` is one secret or several (any of them may have signed)."""
    keys = _keys(secret_or_secrets)
    body = _body_bytes(payload)
    found = _headers(headers)
    message_id = found.get("webhook-id")
    timestamp = found.get("webhook-timestamp")
    signatures = found.get("webhook-signature")
    if not message_id or not timestamp or not signatures:
        raise WebhookVerificationError(
            "missing webhook-id, webhook-timestamp or webhook-signature header"
        )
    if not timestamp.isdigit() or not timestamp.isascii():
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds")
    age = _epoch(now) - int(timestamp)
    if age > tolerance:
        raise WebhookVerificationError("the message is too old: its timestamp is past the tolerance")
    if age < -tolerance:
        raise WebhookVerificationError("the message is from the future: its timestamp is past the tolerance")

    presented: List[bytes] = []
    for entry in signatures.split():
        version, _, encoded = entry.partition(",")
        if version != "v1" or not encoded:
            continue
        try:
            presented.append(base64.b64decode(encoded, validate=True))
        except (binascii.Error, ValueError):
            continue
    # Every candidate is compared in constant time, so timing tells nothing about a forged one.
    matched = False
    for key in keys:
        expected = _signature(key, message_id, timestamp, body)
        for candidate in presented:
            if hmac.compare_digest(expected, candidate):
                matched = True
    if not matched:
        raise WebhookVerificationError("no signature matches any of the secrets")
    return message_id


def parse_json(payload: Payload) -> Any:
    """A verified body as JSON, decimals as Decimal (never float)."""
    try:
        return json.loads(_body_bytes(payload).decode("utf-8"), parse_float=Decimal)
    except (UnicodeDecodeError, ValueError):
        raise WebhookVerificationError("the body is not JSON") from None


def verify(
    payload: Payload,
    headers: Mapping[str, Any],
    secret_or_secrets: Secrets,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Now = None,
) -> Event:
    """Verifies a webhook delivery and returns its event (``id``, ``type``, ``created_at``,
    ``livemode``, ``data``). Raises WebhookVerificationError when it must not be trusted.

    Answer any 2xx quickly once it is verified; the same event may come more than once (key on
    ``event.id``)."""
    verify_signature(payload, headers, secret_or_secrets, tolerance=tolerance, now=now)
    body = parse_json(payload)
    if not isinstance(body, dict) or not isinstance(body.get("type"), str) or not body.get("id"):
        raise WebhookVerificationError("the body is not an event")
    return Event.from_dict(body)


def sign(
    payload: Payload,
    secret: str,
    *,
    message_id: str,
    timestamp: Optional[int] = None,
) -> Dict[str, str]:
    """The three headers the platform would send with ``payload``: for testing your receiver."""
    stamp = str(int(time.time()) if timestamp is None else int(timestamp))
    digest = _signature(_key(secret), message_id, stamp, _body_bytes(payload))
    return {
        "webhook-id": message_id,
        "webhook-timestamp": stamp,
        "webhook-signature": "v1," + base64.b64encode(digest).decode("ascii"),
    }
