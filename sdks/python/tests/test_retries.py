"""Retries: what is retried (and what never is), backoff with jitter, Retry-After, the Idempotency-Key
kept across attempts, and the per-attempt timeout."""

from __future__ import annotations

import logging
import time
import uuid

import pytest
from conftest import Reply, closed_port, problem

import casino_gaming
from casino_gaming._client import parse_retry_after, retry_delay

SESSION = {
    "id": "0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90", "player_id": "player-1",
    "game_id": "pragmatic-play:vs20olympgate", "currency": "EUR", "status": "created", "livemode": True,
    "created_at": "2026-01-01T00:00:00Z", "expires_at": "2026-01-01T00:15:00Z",
    "launch_url": "https://play.cgs.example/launch?token=t",
}
CREATE = dict(player_id="player-1", game_id="pragmatic-play:vs20olympgate", currency="EUR")
UNAVAILABLE = Reply(503, problem(503, "service_unavailable", retryable=True), {"Retry-After": "5"})


def test_a_503_is_retried_with_the_same_idempotency_key_and_then_succeeds(fake_api):
    fake_api.script = [UNAVAILABLE, UNAVAILABLE, Reply(201, SESSION)]
    client = fake_api.client(max_retries=2)
    session = client.sessions.create(**CREATE)
    assert session.id == SESSION["id"]
    keys = [request.headers["idempotency-key"] for request in fake_api.requests]
    assert len(keys) == 3 and len(set(keys)) == 1
    assert uuid.UUID(keys[0]).version == 4
    # Each wait honours Retry-After.
    assert client.waits == [5.0, 5.0]
    assert [request.json() for request in fake_api.requests] == [CREATE] * 3


def test_each_create_call_gets_its_own_key_and_a_given_key_is_used_as_is(fake_api):
    fake_api.script = [Reply(201, SESSION), Reply(201, SESSION), Reply(201, SESSION)]
    client = fake_api.client()
    client.sessions.create(**CREATE)
    client.sessions.create(**CREATE)
    client.sessions.create(**CREATE, idempotency_key="order-123")
    keys = [request.headers["idempotency-key"] for request in fake_api.requests]
    assert keys[0] != keys[1] and keys[2] == "order-123"


def test_retries_stop_at_max_retries_with_a_retryable_typed_error(fake_api, caplog):
    fake_api.script = lambda request: UNAVAILABLE
    client = fake_api.client(max_retries=3)
    with caplog.at_level(logging.DEBUG, logger="casino_gaming"):
        with pytest.raises(casino_gaming.ServiceUnavailableError) as raised:
            client.sessions.create(**CREATE)
    assert len(fake_api.requests) == 4
    assert raised.value.status == 503 and raised.value.code == "service_unavailable"
    assert raised.value.retryable is True and raised.value.retry_after == "5"
    attempts = [record.cgs_attempt for record in caplog.records if record.levelno == logging.DEBUG]
    assert attempts == [1, 2, 3, 4]
    assert len({record.cgs_idempotency_key for record in caplog.records}) == 1


def test_max_retries_zero_turns_retrying_off(fake_api):
    fake_api.script = lambda request: UNAVAILABLE
    with pytest.raises(casino_gaming.ServiceUnavailableError):
        fake_api.client(max_retries=0).games.list()
    assert len(fake_api.requests) == 1


def test_409_idempotency_key_in_use_and_429_are_retried(fake_api):
    fake_api.script = [
        Reply(409, problem(409, "idempotency_key_in_use", retryable=True), {"Retry-After": "1"}),
        Reply(429, {"message": "slow down"}, {"Retry-After": "2"}),
        Reply(201, SESSION),
    ]
    client = fake_api.client(max_retries=2)
    client.sessions.create(**CREATE)
    assert client.waits == [1.0, 2.0]


@pytest.mark.parametrize(
    "status, code, kind",
    [
        (400, "validation_failed", casino_gaming.BadRequestError),
        (401, "invalid_api_key", casino_gaming.AuthenticationError),
        (403, "player_restricted", casino_gaming.PermissionDeniedError),
        (404, "not_found", casino_gaming.NotFoundError),
        (409, "rounds_open", casino_gaming.ConflictError),
        (422, "reference_unavailable", casino_gaming.UnprocessableEntityError),
        (500, "internal_error", casino_gaming.InternalServerError),
    ],
)
def test_a_final_answer_is_raised_at_once_as_its_typed_error(fake_api, status, code, kind):
    fake_api.script = lambda request: Reply(status, problem(status, code))
    with pytest.raises(kind) as raised:
        fake_api.client().sessions.create(**CREATE)
    assert len(fake_api.requests) == 1
    assert isinstance(raised.value, casino_gaming.ApiError)
    assert raised.value.code == code and raised.value.retryable is False


def test_a_retry_after_longer_than_the_maximum_ends_retrying_rather_than_come_early(fake_api):
    fake_api.script = lambda request: Reply(
        503, problem(503, "service_unavailable", retryable=True), {"Retry-After": "120"}
    )
    client = fake_api.client(max_retries=2, max_retry_delay=30)
    with pytest.raises(casino_gaming.ServiceUnavailableError):
        client.games.list()
    assert len(fake_api.requests) == 1 and client.waits == []


def test_a_network_failure_is_retried_for_reads_and_idempotent_creates(fake_api):
    fake_api.script = [Reply(drop=True), Reply(200, {"data": [], "next_cursor": None, "has_more": False})]
    client = fake_api.client()
    assert list(client.games.list()) == []
    assert len(fake_api.requests) == 2 and len(client.waits) == 1

    fake_api.requests.clear()
    fake_api.script = [Reply(drop=True), Reply(201, SESSION)]
    client.sessions.create(**CREATE)
    keys = {request.headers["idempotency-key"] for request in fake_api.requests}
    assert len(fake_api.requests) == 2 and len(keys) == 1


def test_a_network_failure_is_never_retried_where_a_repeat_could_act_twice(fake_api):
    # The API takes no Idempotency-Key for a webhook endpoint: the first attempt may have made one.
    fake_api.script = lambda request: Reply(drop=True)
    client = fake_api.client(max_retries=3)
    with pytest.raises(casino_gaming.ApiConnectionError):
        client.webhook_endpoints.create(url="https://hooks.operator.example/cgs")
    assert len(fake_api.requests) == 1
    with pytest.raises(casino_gaming.ApiConnectionError):
        client.wallet_settings.update(mode="seamless", rotate_secret=True)
    assert len(fake_api.requests) == 2


def test_a_503_is_retried_even_for_a_create_without_idempotency(fake_api):
    # The API's word that nothing was written (retryable: true) makes any repeat safe.
    fake_api.script = [UNAVAILABLE, Reply(201, {
        "id": "e", "url": "https://h.example/", "event_types": [], "enabled": True, "description": None,
        "secret_prefix": "whsec_ab", "livemode": True, "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z", "secret": "whsec_abc",
    })]
    endpoint = fake_api.client().webhook_endpoints.create(url="https://h.example/")
    assert endpoint.secret == "whsec_abc" and len(fake_api.requests) == 2


def test_an_outcome_unknown_is_retried_only_where_the_repeat_is_the_same_request(fake_api):
    # The write may have been applied: a create without a key is not sent again, a session's is.
    unknown = Reply(503, problem(503, "outcome_unknown", retryable=True), {"Retry-After": "1"})
    fake_api.script = [unknown]
    with pytest.raises(casino_gaming.ServiceUnavailableError) as raised:
        fake_api.client().webhook_endpoints.create(url="https://h.example/")
    assert raised.value.code == "outcome_unknown" and len(fake_api.requests) == 1
    fake_api.script = [unknown, Reply(201, SESSION)]
    assert fake_api.client().sessions.create(**CREATE).id == SESSION["id"]
    keys = {request.headers["idempotency-key"] for request in fake_api.requests[1:]}
    assert len(fake_api.requests) == 3 and len(keys) == 1


def test_an_unreachable_server_raises_a_connection_error_after_the_retries(caplog):
    client = casino_gaming.Client(
        "cgs_live_unit-test-key", base_url=f"http://127.0.0.1:{closed_port()}/functions/v1", max_retries=2
    )
    waits = []
    client._sleep = waits.append
    with caplog.at_level(logging.DEBUG, logger="casino_gaming"):
        with pytest.raises(casino_gaming.ApiConnectionError) as raised:
            client.currencies.list()
    assert not isinstance(raised.value, casino_gaming.ApiTimeoutError)
    assert raised.value.retryable is True
    assert len(waits) == 2
    assert [r.cgs_attempt for r in caplog.records if r.levelno == logging.DEBUG] == [1, 2, 3]


def test_each_attempt_has_its_own_timeout(fake_api):
    # The first answer would take 30 s: only the attempt's own timeout ends it well before that,
    # and a timeout for the whole call would leave the retry no time at all.
    fake_api.script = [Reply(200, {"data": [], "next_cursor": None, "has_more": False}, delay=30.0),
                       Reply(200, {"data": [], "next_cursor": None, "has_more": False})]
    client = fake_api.client(timeout=0.3, max_retries=1)
    started = time.monotonic()
    assert list(client.providers.list()) == []
    assert time.monotonic() - started < 10
    assert len(fake_api.requests) == 2


def test_a_timeout_is_raised_as_api_timeout_error(fake_api):
    fake_api.script = lambda request: Reply(200, {}, delay=1.0)
    client = fake_api.client(timeout=0.2, max_retries=0)
    with pytest.raises(casino_gaming.ApiTimeoutError):
        client.wallet_settings.get()


def test_an_answer_trickling_in_cannot_outlast_the_timeout(fake_api):
    # Every byte comes well within the timeout; the whole answer does not.
    # The whole answer would take about 5 s; the call gives up at its 0.5 s timeout.
    fake_api.script = lambda request: Reply(200, {"data": [], "next_cursor": None, "has_more": False}, trickle=0.1)
    client = fake_api.client(timeout=0.5, max_retries=0)
    started = time.monotonic()
    with pytest.raises(casino_gaming.ApiTimeoutError):
        client.wallets.list()
    assert time.monotonic() - started < 4


def test_backoff_grows_exponentially_with_equal_jitter_and_a_cap():
    for retry in range(6):
        step = min(8.0, 0.5 * 2**retry)
        low = retry_delay(retry, initial=0.5, maximum=8.0, random_fraction=lambda: 0.0)
        high = retry_delay(retry, initial=0.5, maximum=8.0, random_fraction=lambda: 0.999999)
        assert low == pytest.approx(step / 2)
        assert step / 2 <= high <= step
    samples = {retry_delay(3, initial=0.5, maximum=30.0) for _ in range(50)}
    assert len(samples) > 1 and all(2.0 <= s <= 4.0 for s in samples)


def test_backoff_waits_at_least_retry_after_but_not_past_the_maximum():
    assert retry_delay(0, initial=0.5, maximum=30, retry_after=5) == 5
    assert retry_delay(0, initial=0.5, maximum=30, retry_after=30) == 30
    assert retry_delay(0, initial=0.5, maximum=30, retry_after=31) is None


def test_retry_after_in_seconds_or_as_an_http_date():
    assert parse_retry_after("5") == 5.0
    assert parse_retry_after(" 0 ") == 0.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_the_client_refuses_settings_that_cannot_work():
    with pytest.raises(ValueError, match="api_key"):
        casino_gaming.Client("")
    with pytest.raises(ValueError, match="header"):
        casino_gaming.Client("cgs_live_a\r\nX-Evil: 1")
    with pytest.raises(ValueError, match="base_url"):
        casino_gaming.Client("k", base_url="ftp://example.com")
    with pytest.raises(ValueError, match="max_retries"):
        casino_gaming.Client("k", max_retries=-1)
    with pytest.raises(ValueError, match="timeout"):
        casino_gaming.Client("k", timeout=0)
