"""Against the real API: the v3 function on a real database (tests/sdks/harness.ts serves it and sets
CGS_*), and messages the platform really signed. Skipped when CGS_API_URL is unset."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import logging
import os
import uuid
from decimal import Decimal
from pathlib import Path

import pytest

import casino_gaming
from casino_gaming import seamless, webhooks
from casino_gaming.types import Event, Game, GameSession, Transaction, Wallet, WalletCall

pytestmark = pytest.mark.skipif(
    not os.environ.get("CGS_API_URL"), reason="CGS_API_URL is not set: no API to test against"
)

GAME_ID = "pragmatic-play:vs20olympgate"


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set (tests/sdks/harness.ts sets every CGS_* variable)")
    return value


@pytest.fixture(scope="module")
def live() -> casino_gaming.Client:
    return casino_gaming.Client(env("CGS_LIVE_KEY"), base_url=env("CGS_API_URL"))


@pytest.fixture(scope="module")
def test_mode() -> casino_gaming.Client:
    return casino_gaming.Client(env("CGS_TEST_KEY"), base_url=env("CGS_API_URL"))


@pytest.fixture(scope="module")
def messages() -> dict:
    return json.loads(Path(env("CGS_SIGNED_MESSAGES")).read_text(encoding="utf-8"))


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"


# -- sessions ---------------------------------------------------------------------------------


def test_a_session_is_created_read_listed_and_closed(live):
    player = unique("py-player")
    session = live.sessions.create(player_id=player, game_id=GAME_ID, currency="EUR")
    assert isinstance(session, GameSession)
    assert session.status == "created" and session.livemode is True
    assert session.player_id == player and session.game_id == GAME_ID
    assert session.launch_url and "token=" in session.launch_url
    assert session.expires_at > session.created_at > dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)

    assert live.sessions.get(session.id).id == session.id
    assert [s.id for s in live.sessions.list(player_id=player)] == [session.id]
    closed = live.sessions.close(session.id)
    assert closed.status == "closed"
    assert [s.id for s in live.sessions.list(player_id=player, status="closed")] == [session.id]


def test_the_same_idempotency_key_replays_the_first_session(live):
    key = unique("order")
    first = live.sessions.create(player_id="py-replay", game_id=GAME_ID, currency="EUR", idempotency_key=key)
    again = live.sessions.create(player_id="py-replay", game_id=GAME_ID, currency="EUR", idempotency_key=key)
    assert again.id == first.id
    with pytest.raises(casino_gaming.UnprocessableEntityError) as raised:
        live.sessions.create(player_id="py-other", game_id=GAME_ID, currency="EUR", idempotency_key=key)
    assert raised.value.code == "idempotency_key_reused"


def test_test_mode_sessions_are_apart_from_live_ones(live, test_mode):
    test_mode.sandbox.create_player(player_id="py-test-player", currency="EUR", balance=Decimal("50"))
    session = test_mode.sessions.create(player_id="py-test-player", game_id=GAME_ID, currency="EUR")
    assert session.livemode is False
    with pytest.raises(casino_gaming.NotFoundError) as raised:
        live.sessions.get(session.id)
    assert raised.value.code == "not_found"


# -- catalogue, money -------------------------------------------------------------------------


def test_games_iterate_across_small_pages_without_duplicates(live):
    everything = [game.game_id for game in live.games.list(limit=100)]
    pages = list(live.games.list(limit=2).iter_pages())
    paged = [game.game_id for page in pages for game in page.data]
    assert len(everything) > 2, "the catalogue should span several pages of two"
    assert len(pages) == -(-len(everything) // 2)
    assert len(paged) == len(set(paged)), "a game came twice"
    assert paged == everything
    assert [game.game_id for game in live.games.list(limit=2)] == everything
    game = live.games.get(everything[0])
    assert isinstance(game, Game) and game.game_id == everything[0]
    assert game.rtp is None or isinstance(game.rtp, Decimal)


def test_games_filter_and_the_catalogue_lists_read(live):
    slots = list(live.games.list(category="slots", currency="EUR"))
    assert slots and all(game.category == "slots" for game in slots)
    synced = list(live.games.list(updated_since=dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc), limit=3))
    assert {game.game_id for game in synced} >= {game.game_id for game in slots}
    providers = list(live.providers.list(limit=1))
    assert providers and len({p.slug for p in providers}) == len(providers)
    assert any(currency.code == "EUR" for currency in live.currencies.list())
    jurisdictions = list(live.jurisdictions.list())
    if jurisdictions:
        one = live.jurisdictions.get(jurisdictions[0].code)
        assert one.code == jurisdictions[0].code
        assert one.rules.max_stake is None or isinstance(one.rules.max_stake, Decimal)


def test_wallets_and_the_ledger_read_as_decimals(live, test_mode):
    wallets = list(live.wallets.list())
    assert all(isinstance(w, Wallet) and isinstance(w.balance, Decimal) for w in wallets)
    ledger = list(live.transactions.list(limit=2, created_after=dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)))
    assert all(isinstance(t, Transaction) and isinstance(t.amount, Decimal) for t in ledger)
    assert len({t.id for t in ledger}) == len(ledger)
    assert list(live.transactions.list(currency="EUR", type="bet")) == [
        t for t in ledger if t.currency == "EUR" and t.type == "bet"
    ]
    # The float is live money: a test key sees its test floats (never primary) and test ledger
    # instead, never a live wallet or line.
    assert all(not w.is_primary for w in test_mode.wallets.list())
    live_ids = {t.id for t in live.transactions.list()}
    assert not live_ids & {t.id for t in test_mode.transactions.list()}


def test_rounds_list_and_an_unknown_round_is_not_found(live):
    assert all(r.total_bet >= 0 for r in live.rounds.list(status="open", opened_before=dt.datetime.now(dt.timezone.utc)))
    with pytest.raises(casino_gaming.NotFoundError):
        live.rounds.get(str(uuid.uuid4()))


def test_the_reconciliation_csv_holds_the_lines_the_pages_hold(live):
    today = dt.datetime.now(dt.timezone.utc).date()
    ids, cursor = [], None
    while True:
        page = live.reports.reconciliation(date=today, limit=1000, cursor=cursor)
        ids += [line.id for line in page.data]
        if not page.has_more:
            break
        cursor = page.next_cursor
    data = live.reports.reconciliation_csv(date=today)
    assert data.startswith("\ufeff".encode("utf-8"))
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows[0][:2] == ["created_at", "id"]
    assert [row[1] for row in rows[1:]] == ids
    with pytest.raises(casino_gaming.BadRequestError) as raised:
        live.reports.reconciliation_csv(date="2026-02-30")
    assert raised.value.code == "invalid_parameters"


# -- errors -----------------------------------------------------------------------------------


def test_a_bad_key_is_an_authentication_error_with_its_code():
    client = casino_gaming.Client("cgs_live_" + "A" * 43, base_url=env("CGS_API_URL"))
    with pytest.raises(casino_gaming.AuthenticationError) as raised:
        client.sessions.create(player_id="p", game_id=GAME_ID, currency="EUR")
    error = raised.value
    assert error.status == 401 and error.code == "invalid_api_key" and error.retryable is False
    assert error.title and error.detail and error.type.endswith("/invalid_api_key")


def test_invalid_input_is_a_bad_request_naming_every_field(live):
    with pytest.raises(casino_gaming.BadRequestError) as raised:
        live.sessions.create(player_id="", game_id="nope", currency="eur")
    error = raised.value
    assert error.status == 400 and error.code == "validation_failed"
    assert {e.pointer for e in error.errors} == {"#/player_id", "#/game_id", "#/currency"}


def test_an_unplayable_reference_is_unprocessable_with_field_errors(live):
    with pytest.raises(casino_gaming.UnprocessableEntityError) as raised:
        live.sessions.create(player_id="py-p", game_id=GAME_ID, currency="XXX")
    error = raised.value
    assert error.status == 422 and error.code == "reference_unavailable"
    assert [(e.pointer, e.code) for e in error.errors] == [("#/currency", "unknown_currency")]


def test_a_bad_query_parameter_is_named(live):
    with pytest.raises(casino_gaming.BadRequestError) as raised:
        list(live.games.list(cursor="not-a-cursor-this-endpoint-made"))
    assert raised.value.code == "invalid_parameters"
    assert [e.parameter for e in raised.value.errors] == ["cursor"]


def test_an_unavailable_service_is_retried_then_raised_as_retryable(caplog):
    client = casino_gaming.Client(env("CGS_LIVE_KEY"), base_url=env("CGS_UNAVAILABLE_URL"), max_retries=2)
    waits = []
    client._sleep = waits.append  # the backoff is observed, not waited for
    with caplog.at_level(logging.DEBUG, logger="casino_gaming"):
        with pytest.raises(casino_gaming.ServiceUnavailableError) as raised:
            client.sessions.create(player_id="py-p", game_id=GAME_ID, currency="EUR")
    error = raised.value
    assert error.status == 503 and error.code == "service_unavailable" and error.retryable is True
    attempts = [r for r in caplog.records if r.levelno == logging.DEBUG and r.cgs_path == "/v3/sessions"]
    assert [r.cgs_attempt for r in attempts] == [1, 2, 3]
    keys = {r.cgs_idempotency_key for r in attempts}
    assert len(keys) == 1 and None not in keys
    # Two waits, each no sooner than the server's Retry-After.
    assert len(waits) == 2
    assert all(wait >= float(error.retry_after) for wait in waits)


# -- webhooks ---------------------------------------------------------------------------------


def at(message: dict, seconds: int) -> int:
    return int(message["headers"]["webhook-timestamp"]) + seconds


def test_the_real_delivery_verifies_into_its_event(messages):
    message = messages["webhook"]
    event = webhooks.verify(message["body"], message["headers"], message["secret"], now=at(message, 60))
    assert isinstance(event, Event)
    assert event.type == "session.created" and event.id == message["headers"]["webhook-id"]
    assert event.data["player_id"] == "player-sdk"
    assert event.created_at.tzinfo is not None
    assert webhooks.verify(message["body"].encode(), message["headers"], message["secret"], now=at(message, 0))


def test_the_rotated_delivery_verifies_with_either_secret(messages):
    message = messages["rotated"]
    old, new = message["secrets"]
    assert old != new and len(message["headers"]["webhook-signature"].split()) == 2
    for secrets in (old, new, [old, new], [new, old]):
        event = webhooks.verify(message["body"], message["headers"], secrets, now=at(message, 1))
        assert event.type == "session.created"
    # The first delivery, made before the rotation, carries the old secret's signature only.
    first = messages["webhook"]
    with pytest.raises(casino_gaming.WebhookVerificationError):
        webhooks.verify(first["body"], first["headers"], new, now=at(first, 1))


def test_a_tampered_body_signature_or_stale_timestamp_is_refused(messages):
    message = messages["webhook"]
    body, headers, secret = message["body"], message["headers"], message["secret"]
    tampered = body.replace("player-sdk", "player-sdx")
    assert tampered != body
    with pytest.raises(casino_gaming.WebhookVerificationError):
        webhooks.verify(tampered, headers, secret, now=at(message, 1))
    forged = dict(headers, **{"webhook-signature": "v1," + "A" * 43 + "="})
    with pytest.raises(casino_gaming.WebhookVerificationError):
        webhooks.verify(body, forged, secret, now=at(message, 1))
    with pytest.raises(casino_gaming.WebhookVerificationError, match="too old"):
        webhooks.verify(body, headers, secret, now=at(message, 301))
    with pytest.raises(casino_gaming.WebhookVerificationError, match="future"):
        webhooks.verify(body, headers, secret, now=at(message, -301))
    restamped = dict(headers, **{"webhook-timestamp": str(at(message, 10))})
    with pytest.raises(casino_gaming.WebhookVerificationError):
        webhooks.verify(body, restamped, secret, now=at(message, 10))


def test_the_real_wallet_call_verifies_and_is_answered(messages):
    message = messages["wallet_call"]
    call = seamless.verify_call(message["body"], message["headers"], message["secret"], now=at(message, 1))
    assert isinstance(call, WalletCall)
    assert call.action == "balance"
    assert call.player_id == "player-1" and call.currency == "EUR"
    assert call.session_id and call.game_id
    answer = seamless.handle(
        message["body"], message["headers"], message["secret"], lambda c: Decimal("100"), now=at(message, 1)
    )
    # What the harness's wallet answered the platform, which took it as a balance.
    assert (answer.status, answer.body) == (200, b'{"balance":"100.0000"}')
    forged = seamless.handle(message["body"], message["headers"], messages["webhook"]["secret"],
                             lambda c: Decimal("100"), now=at(message, 1))
    assert forged.status == 401


def test_webhook_endpoints_and_events_round_trip(live):
    created = live.webhook_endpoints.create(
        url="http://127.0.0.1:9/py-hook", event_types=["round.closed"], description="python sdk"
    )
    try:
        assert created.secret.startswith("whsec_") and created.secret.startswith(created.secret_prefix)
        assert created.id in {e.id for e in live.webhook_endpoints.list(limit=1)}
        assert live.webhook_endpoints.get(created.id).event_types == ["round.closed"]
        updated = live.webhook_endpoints.update(created.id, enabled=False, description=None)
        assert updated.enabled is False and updated.description is None
        ping = live.webhook_endpoints.test(created.id)
        assert ping.type == "endpoint.ping"
        assert live.events.get(ping.id).id == ping.id
        assert ping.id in {e.id for e in live.events.list(type="endpoint.ping")}
        deliveries = live.events.deliveries(ping.id)
        assert [d.endpoint_id for d in deliveries] == [created.id]
        assert all(isinstance(d.attempts, int) for d in live.events.redeliver(ping.id))
        rotated = live.webhook_endpoints.rotate_secret(created.id)
        assert rotated.secret != created.secret
    finally:
        assert live.webhook_endpoints.delete(created.id).id == created.id
    with pytest.raises(casino_gaming.NotFoundError):
        live.webhook_endpoints.get(created.id)


def test_wallet_settings_and_the_sandbox_self_check(live, test_mode):
    assert live.wallet_settings.get().mode == "transfer"
    settings = test_mode.wallet_settings.get()
    assert settings.mode == "seamless" and settings.livemode is False
    report = test_mode.sandbox.check_wallet(player_id="player-1", currency="EUR")
    assert [s.scenario for s in report.scenarios][:2] == ["balance", "debit"]
    assert report.passed == all(s.passed for s in report.scenarios)
    with pytest.raises(casino_gaming.PermissionDeniedError) as raised:
        live.sandbox.create_player(player_id="p", currency="EUR", balance=1)
    assert raised.value.code == "live_key"


def test_player_restrictions_are_set_read_and_guarded(live):
    player = unique("py-restricted")
    assert live.players.get_restrictions(player).stake_limits == {}
    restrictions = live.players.set_restrictions(
        player,
        stake_limits={"EUR": Decimal("2.5")},
        loss_limits={"EUR": {"day": Decimal("50"), "month": "500"}},
        cool_off_until=dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1),
    )
    assert restrictions.stake_limits == {"EUR": Decimal("2.5")}
    assert restrictions.loss_limits["EUR"].day == Decimal("50")
    assert live.players.get_restrictions(player).cool_off_until == restrictions.cool_off_until
    with pytest.raises(casino_gaming.ConflictError) as raised:
        live.players.set_restrictions(player)
    assert raised.value.code == "exclusion_active"


def test_the_discovery_documents(live):
    assert live.discovery.jwks()["keys"]
    assert live.discovery.openapi()["openapi"].startswith("3.1")


# -- free rounds ------------------------------------------------------------------------------


def test_a_campaign_is_created_granted_a_player_removed_and_cancelled(test_mode):
    until = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=3)
    arguments = dict(
        external_id=unique("py"), name="Python spins", game_ids=["cgs-sandbox:lucky-sevens"], currency="EUR",
        bet_amount="0.20", rounds=5, valid_until=until, max_win=Decimal("10"), player_ids=["py-fr-1"],
    )
    campaign = test_mode.free_round_campaigns.create(**arguments)
    assert (campaign.livemode, campaign.status, campaign.bet_amount, campaign.grants.pending) == (False, "active", Decimal("0.2"), 1)
    assert test_mode.free_round_campaigns.create(**arguments).id == campaign.id
    added = test_mode.free_round_campaigns.add_players(campaign.id, player_ids=["py-fr-1", "py-fr-2"])
    assert (added.created, added.unchanged) == (1, 1)
    removed = test_mode.free_round_campaigns.remove_player(campaign.id, "py-fr-2")
    assert (removed.player_id, removed.status, removed.rounds_left) == ("py-fr-2", "cancelled", 0)
    assert test_mode.free_round_campaigns.remove_player(campaign.id, "py-fr-2") == removed
    with pytest.raises(casino_gaming.NotFoundError):
        test_mode.free_round_campaigns.remove_player(campaign.id, "nobody")
    pending = list(test_mode.free_round_grants.list(campaign_id=campaign.id, status="pending"))
    assert [(g.player_id, g.rounds_left) for g in pending] == [("py-fr-1", 5)]
    cancelled = test_mode.free_round_campaigns.cancel(campaign.id)
    assert (cancelled.status, cancelled.grants.cancelled) == ("cancelled", 2)


def test_the_demo_fixtures_settle_resettle_and_void_and_the_bets_read(live, test_mode):
    fixture = unique("py")
    settled = test_mode.sandbox.settle_fixture(fixture, outcome="home")
    assert (settled.fixture_id, settled.outcome, settled.bets) == (fixture, "home", [])
    with pytest.raises(casino_gaming.ConflictError) as raised:
        test_mode.sandbox.settle_fixture(fixture, outcome="away")
    assert raised.value.code == "fixture_settled"
    assert test_mode.sandbox.resettle_fixture(fixture, outcome="away").outcome == "away"
    assert test_mode.sandbox.void_fixture(fixture).outcome == "void"
    with pytest.raises(casino_gaming.ConflictError) as raised:
        test_mode.sandbox.resettle_fixture(unique("py"), outcome="draw")
    assert raised.value.code == "fixture_not_settled"
    with pytest.raises(casino_gaming.PermissionDeniedError):
        live.sandbox.void_fixture(fixture)
    assert all(not bet.livemode and bet.status == "settled" for bet in test_mode.sportsbook_bets.list(status="settled"))
    with pytest.raises(casino_gaming.NotFoundError):
        test_mode.sportsbook_bets.get("00000000-0000-4000-8000-000000000000")
