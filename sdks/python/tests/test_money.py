"""Money is Decimal end to end: decimal strings in, Decimal in the objects, strings out; never a
float."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

import pytest
from conftest import Reply

from casino_gaming._model import Model, decimal_string, parse_datetime, parse_decimal
from casino_gaming.types import PlayerRestrictions, Problem, RoundDetail, Transaction, Wallet


def floats_in(value):
    """Every float anywhere in a parsed object."""
    if isinstance(value, float):
        return [value]
    if isinstance(value, Model):
        return [f for field in dataclasses.fields(value) for f in floats_in(getattr(value, field.name))]
    if isinstance(value, dict):
        return [f for element in value.values() for f in floats_in(element)]
    if isinstance(value, list):
        return [f for element in value for f in floats_in(element)]
    return []


def test_balances_and_amounts_are_exact_decimals():
    wallet = Wallet.from_dict(
        {"currency": "EUR", "balance": "12345678901.2345", "is_primary": True, "updated_at": "2026-01-31T00:00:00Z"}
    )
    assert wallet.balance == Decimal("12345678901.2345")
    assert str(wallet.balance) == "12345678901.2345"
    transaction = Transaction.from_dict(
        {
            "id": "t", "type": "bet", "currency": "EUR", "amount": "-2.5000", "balance_after": None,
            "reference": None, "note": None, "created_at": "2026-01-31T00:00:00.123+01:00",
        }
    )
    assert transaction.amount == Decimal("-2.5")
    assert transaction.balance_after is None
    assert transaction.created_at == dt.datetime(2026, 1, 30, 23, 0, 0, 123000, tzinfo=dt.timezone.utc)
    assert floats_in(wallet) == [] and floats_in(transaction) == []


def test_nested_money_is_decimal_too():
    detail = RoundDetail.from_dict(
        {
            "id": "r", "round_id": "round-77", "provider": "p", "game_id": "p:g", "session_id": "s",
            "player_id": "player-1", "currency": "EUR", "status": "closed", "total_bet": "0.1",
            "total_win": "0.2", "livemode": True, "opened_at": "2026-01-01T00:00:00Z", "closed_at": None,
            "transactions": [
                {"transaction_id": "tx", "type": "bet", "amount": "0.1", "related_transaction_id": None,
                 "rolled_back": False, "created_at": "2026-01-01T00:00:00Z"},
            ],
        }
    )
    # 0.1 + 0.2 is 0.3 exactly, which it is not in floating point.
    assert detail.total_bet + detail.total_win == Decimal("0.3")
    assert detail.transactions[0].amount == Decimal("0.1")
    restrictions = PlayerRestrictions.from_dict(
        {
            "player_id": "p", "self_excluded_until": None, "self_excluded_indefinitely": False,
            "cool_off_until": None, "loss_limits": {"EUR": {"day": "50", "week": None}},
            "stake_limits": {"EUR": "2"}, "session_time_limit_minutes": None, "livemode": True,
            "updated_at": None,
        }
    )
    assert restrictions.loss_limits["EUR"].day == Decimal("50")
    assert restrictions.stake_limits["EUR"] == Decimal("2")
    problem = Problem.from_dict(
        {"type": "t", "title": "t", "status": 422, "detail": "d", "code": "insufficient_funds",
         "retryable": False, "balance": "3.2500", "currency": "EUR"}
    )
    assert problem.balance == Decimal("3.25")
    assert floats_in(detail) == [] and floats_in(restrictions) == []


def test_to_dict_writes_decimals_back_as_strings():
    wallet = Wallet.from_dict(
        {"currency": "EUR", "balance": "10.5000", "is_primary": False, "updated_at": "2026-01-31T00:00:00Z"}
    )
    assert wallet.to_dict() == {
        "currency": "EUR", "balance": "10.5000", "is_primary": False, "updated_at": "2026-01-31T00:00:00+00:00",
    }


@pytest.mark.parametrize(
    "value, text",
    [
        (Decimal("10.50"), "10.50"),
        (Decimal("1E+2"), "100"),
        (Decimal("0.0001"), "0.0001"),
        (Decimal("-0"), "0"),
        (7, "7"),
        ("2.5", "2.5"),
    ],
)
def test_money_goes_out_as_plain_decimal_strings(value, text):
    assert decimal_string(value) == text


@pytest.mark.parametrize("value", [1.5, 0.1, True])
def test_floats_and_bools_are_refused_as_money(value):
    with pytest.raises(TypeError):
        decimal_string(value)


@pytest.mark.parametrize("value", ["abc", "NaN", Decimal("Infinity"), ""])
def test_non_numbers_are_refused_as_money(value):
    with pytest.raises(ValueError):
        decimal_string(value)


def test_parse_decimal_refuses_floats():
    with pytest.raises(TypeError):
        parse_decimal(2.5)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-01-31T00:00:00Z", dt.datetime(2026, 1, 31, tzinfo=dt.timezone.utc)),
        ("2026-11-24T10:00:04.5+00:00", dt.datetime(2026, 11, 24, 10, 0, 4, 500000, tzinfo=dt.timezone.utc)),
        ("2026-11-24T10:00:04.123456789-05:30", dt.datetime(2026, 11, 24, 15, 30, 4, 123456, tzinfo=dt.timezone.utc)),
    ],
)
def test_instants_are_aware_datetimes(text, expected):
    assert parse_datetime(text) == expected
    assert parse_datetime(text).tzinfo is not None


def test_requests_carry_decimals_as_strings(fake_api):
    fake_api.script = [
        Reply(200, {"player_id": "p", "currency": "EUR", "balance": "1000.10", "behaviour": "normal",
                    "livemode": False, "created_at": "2026-01-01T00:00:00Z"}),
        Reply(200, {"player_id": "p", "self_excluded_until": None, "self_excluded_indefinitely": False,
                    "cool_off_until": "2026-11-26T10:00:00Z", "loss_limits": {"EUR": {"day": "50", "month": "500"}},
                    "stake_limits": {"EUR": "2"}, "session_time_limit_minutes": None, "livemode": True,
                    "updated_at": "2026-01-01T00:00:00Z"}),
    ]
    client = fake_api.client()
    player = client.sandbox.create_player(player_id="p", currency="EUR", balance=Decimal("1000.10"))
    assert player.balance == Decimal("1000.10")
    restrictions = client.players.set_restrictions(
        "p",
        cool_off_until=dt.datetime(2026, 11, 26, 10, tzinfo=dt.timezone.utc),
        loss_limits={"EUR": {"day": Decimal("50"), "month": 500, "week": None}},
        stake_limits={"EUR": "2"},
        session_time_limit_minutes=None,
    )
    assert restrictions.loss_limits["EUR"].month == Decimal("500")
    assert fake_api.requests[0].json() == {"player_id": "p", "currency": "EUR", "balance": "1000.10"}
    assert fake_api.requests[1].json() == {
        "cool_off_until": "2026-11-26T10:00:00+00:00",
        "loss_limits": {"EUR": {"day": "50", "month": "500", "week": None}},
        "stake_limits": {"EUR": "2"},
        "session_time_limit_minutes": None,
    }
    assert b"1000.10" in fake_api.requests[0].body


def test_a_float_amount_never_reaches_the_wire(fake_api):
    client = fake_api.client()
    with pytest.raises(TypeError, match="float"):
        client.sandbox.create_player(player_id="p", currency="EUR", balance=1000.1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="float"):
        client.wallet_settings.update(mode="transfer", low_balance_alerts={"EUR": 10.0})  # type: ignore[dict-item]
    assert fake_api.requests == []


def test_a_naive_datetime_is_refused_rather_than_guessed(fake_api):
    client = fake_api.client()
    with pytest.raises(ValueError, match="timezone-aware"):
        client.games.list(updated_since=dt.datetime(2026, 1, 1))
    assert fake_api.requests == []


def test_json_numbers_in_answers_parse_as_decimal(fake_api):
    fake_api.script = [Reply(200, {"keys": [{"kid": "k"}], "x": 1.25})]
    assert fake_api.client().discovery.jwks()["x"] == Decimal("1.25")
