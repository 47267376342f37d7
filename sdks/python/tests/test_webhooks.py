"""Standard Webhooks verification: signatures, rotation, several secrets, the tolerance window."""

from __future__ import annotations

import base64
import datetime as dt
import json
from decimal import Decimal

import pytest

import casino_gaming
from casino_gaming import WebhookVerificationError, webhooks
from casino_gaming.types import Event

SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()
OTHER = "whsec_" + base64.b64encode(b"o" * 32).decode()
NOW = 1_800_000_000
BODY = json.dumps(
    {
        "id": "3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a",
        "type": "round.closed",
        "created_at": "2026-11-24T10:00:04.500000+00:00",
        "livemode": True,
        "data": {"id": "5d0c7f3e-2a41-4c8e-9b7a-1f2e3d4c5b6a", "total_bet": "2.5000"},
    }
).encode()


def signed(body: bytes = BODY, secret: str = SECRET, at: int = NOW) -> dict:
    return webhooks.sign(body, secret, message_id="3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a", timestamp=at)


def test_the_standard_webhooks_reference_vector_verifies():
    # The example of the Standard Webhooks specification, signed by its reference libraries.
    headers = {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    }
    message_id = webhooks.verify_signature(
        b'{"test": 2432232314}', headers, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", now=1614265330
    )
    assert message_id == "msg_p5jXN8AQM9LWM0D4loKWxJek"


def test_a_signed_delivery_verifies_and_returns_the_typed_event():
    event = webhooks.verify(BODY, signed(), SECRET, now=NOW)
    assert isinstance(event, Event)
    assert event.type == "round.closed"
    assert event.created_at == dt.datetime(2026, 11, 24, 10, 0, 4, 500000, tzinfo=dt.timezone.utc)
    assert event.livemode is True
    # Money in the event's object comes as Decimal strings, left as the API wrote them.
    assert event.data["total_bet"] == "2.5000"


def test_the_body_may_be_str_and_header_names_any_case():
    headers = {name.title(): value for name, value in signed().items()}
    assert webhooks.verify(BODY.decode(), headers, SECRET, now=NOW).id


def test_a_rotation_signs_twice_and_either_secret_verifies():
    one, two = signed(secret=SECRET), signed(secret=OTHER)
    headers = dict(one, **{"webhook-signature": f"{one['webhook-signature']} {two['webhook-signature']}"})
    assert webhooks.verify(BODY, headers, SECRET, now=NOW)
    assert webhooks.verify(BODY, headers, OTHER, now=NOW)
    assert webhooks.verify(BODY, headers, [OTHER, SECRET], now=NOW)


def test_any_of_several_secrets_verifies_a_single_signature():
    assert webhooks.verify(BODY, signed(secret=OTHER), [SECRET, OTHER], now=NOW)
    assert webhooks.verify(BODY, signed(secret=OTHER), (s for s in [SECRET, OTHER]), now=NOW)


def test_a_secret_without_its_prefix_is_the_same_key():
    assert webhooks.verify(BODY, signed(), SECRET[len("whsec_"):], now=NOW)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda body, headers: (body.replace(b"2.5000", b"9.5000"), headers),
        lambda body, headers: (body + b" ", headers),
        lambda body, headers: (body, dict(headers, **{"webhook-id": "another"})),
        lambda body, headers: (body, dict(headers, **{"webhook-timestamp": str(NOW + 1)})),
        lambda body, headers: (
            body,
            dict(headers, **{"webhook-signature": "v1," + base64.b64encode(b"x" * 32).decode()}),
        ),
        lambda body, headers: (body, dict(headers, **{"webhook-signature": headers["webhook-signature"][:-4] + "AAA="})),
        lambda body, headers: (body, dict(headers, **{"webhook-signature": headers["webhook-signature"].replace("v1,", "v2,")})),
        lambda body, headers: (body, dict(headers, **{"webhook-signature": "v1,not base64!"})),
    ],
    ids=["amount", "trailing space", "id", "timestamp", "forged", "altered", "other version", "garbage"],
)
def test_any_change_to_body_or_headers_is_refused(tamper):
    body, headers = tamper(BODY, signed())
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(body, headers, SECRET, now=NOW)


def test_the_wrong_secret_is_refused():
    with pytest.raises(WebhookVerificationError, match="no signature matches"):
        webhooks.verify(BODY, signed(), OTHER, now=NOW)


@pytest.mark.parametrize("missing", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_a_missing_header_is_refused(missing):
    headers = signed()
    del headers[missing]
    with pytest.raises(WebhookVerificationError, match="missing"):
        webhooks.verify(BODY, headers, SECRET, now=NOW)


def test_the_timestamp_is_held_to_five_minutes_either_way():
    assert webhooks.verify(BODY, signed(at=NOW - 300), SECRET, now=NOW)
    assert webhooks.verify(BODY, signed(at=NOW + 300), SECRET, now=NOW)
    with pytest.raises(WebhookVerificationError, match="too old"):
        webhooks.verify(BODY, signed(at=NOW - 301), SECRET, now=NOW)
    with pytest.raises(WebhookVerificationError, match="future"):
        webhooks.verify(BODY, signed(at=NOW + 301), SECRET, now=NOW)
    # A wider tolerance, and `now` as an aware datetime.
    late = dt.datetime.fromtimestamp(NOW + 3600, dt.timezone.utc)
    assert webhooks.verify(BODY, signed(), SECRET, now=late, tolerance=3600)


def test_the_clock_is_the_real_one_by_default():
    import time

    headers = webhooks.sign(BODY, SECRET, message_id="m")
    assert webhooks.verify_signature(BODY, headers, SECRET) == "m"
    stale = webhooks.sign(BODY, SECRET, message_id="m", timestamp=int(time.time()) - 600)
    with pytest.raises(WebhookVerificationError):
        webhooks.verify_signature(BODY, stale, SECRET)


def test_a_timestamp_that_is_not_seconds_is_refused():
    headers = dict(signed(), **{"webhook-timestamp": "2026-11-24T10:00:00Z"})
    with pytest.raises(WebhookVerificationError, match="seconds"):
        webhooks.verify(BODY, headers, SECRET, now=NOW)


def test_signatures_are_compared_in_constant_time(monkeypatch):
    calls = []
    real = webhooks.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(webhooks.hmac, "compare_digest", spy)
    webhooks.verify(BODY, signed(), [OTHER, SECRET], now=NOW)
    assert len(calls) == 2


def test_a_malformed_secret_is_a_programming_error_not_a_forgery():
    with pytest.raises(ValueError):
        webhooks.verify(BODY, signed(), "whsec_***", now=NOW)
    with pytest.raises(ValueError):
        webhooks.verify(BODY, signed(), [], now=NOW)


def test_a_signed_body_that_is_not_an_event_is_refused():
    body = b'{"hello": 1}'
    with pytest.raises(WebhookVerificationError, match="not an event"):
        webhooks.verify(body, signed(body), SECRET, now=NOW)
    body = b"not json"
    with pytest.raises(WebhookVerificationError, match="not JSON"):
        webhooks.verify(body, signed(body), SECRET, now=NOW)


def test_json_numbers_in_an_event_are_decimals_never_floats():
    body = json.dumps({"id": "e", "type": "endpoint.ping", "created_at": "2026-01-01T00:00:00Z", "livemode": False, "data": {"x": 1.1}}).encode()
    event = webhooks.verify(body, signed(body), SECRET, now=NOW)
    assert event.data["x"] == Decimal("1.1")


def test_the_error_is_exported_at_the_top_level():
    assert casino_gaming.WebhookVerificationError is WebhookVerificationError
    assert issubclass(WebhookVerificationError, casino_gaming.CasinoGamingError)
