"""The seamless wallet helper: a signed call verified and typed, and answers shaped as the OpenAPI
document's walletCall responses say."""

from __future__ import annotations

import base64
import json
import re
from decimal import Decimal

import pytest

from casino_gaming import WebhookVerificationError, seamless, webhooks
from casino_gaming.types import WalletCall

SECRET = "whsec_" + base64.b64encode(b"w" * 32).decode()
NOW = 1_800_000_000


def signed_call(body: dict, secret: str = SECRET):
    payload = json.dumps(body).encode()
    return payload, webhooks.sign(payload, secret, message_id="call-1", timestamp=NOW)


def example(openapi, name):
    operation = openapi["webhooks"]["walletCall"]["post"]
    return operation["requestBody"]["content"]["application/json"]["examples"][name]["value"]


def response_schema(openapi, status):
    return openapi["webhooks"]["walletCall"]["post"]["responses"][status]["content"]["application/json"]["schema"]


def amount_pattern(openapi):
    return re.compile(openapi["components"]["schemas"]["Amount"]["pattern"])


def test_the_documents_debit_example_verifies_into_a_typed_call(openapi):
    payload, headers = signed_call(example(openapi, "debit"))
    call = seamless.verify_call(payload, headers, SECRET, now=NOW)
    assert isinstance(call, WalletCall)
    assert call.action == "debit"
    assert call.transaction_id == "pragmatic-play:tx-1001"
    assert call.round_id == "pragmatic-play:round-77"
    assert call.amount == Decimal("10.5000") and isinstance(call.amount, Decimal)
    assert call.player_id == "player-1" and call.currency == "EUR"
    assert call.rolled_back_transaction_id is None and call.round_closed is None


def test_a_rollback_and_a_balance_request_parse_too():
    base = {"session_id": "s", "player_id": "p", "game_id": "g:x", "currency": "EUR"}
    payload, headers = signed_call({**base, "action": "rollback", "transaction_id": "cgs-undo-1",
                                    "rolled_back_transaction_id": "pragmatic-play:tx-1", "round_id": "r"})
    call = seamless.verify_call(payload, headers, SECRET, now=NOW)
    assert call.action == "rollback" and call.rolled_back_transaction_id == "pragmatic-play:tx-1"
    payload, headers = signed_call({**base, "action": "balance"})
    assert seamless.verify_call(payload, headers, SECRET, now=NOW).amount is None


def test_a_forged_stale_or_malformed_call_is_refused(openapi):
    body = example(openapi, "debit")
    payload, headers = signed_call(body, secret="whsec_" + base64.b64encode(b"x" * 32).decode())
    with pytest.raises(WebhookVerificationError):
        seamless.verify_call(payload, headers, SECRET, now=NOW)
    payload, headers = signed_call(body)
    with pytest.raises(WebhookVerificationError):
        seamless.verify_call(payload.replace(b"10.5000", b"0.5000"), headers, SECRET, now=NOW)
    with pytest.raises(WebhookVerificationError):
        seamless.verify_call(payload, headers, SECRET, now=NOW + 301)
    payload, headers = signed_call({"action": "debit"})
    with pytest.raises(WebhookVerificationError, match="session_id"):
        seamless.verify_call(payload, headers, SECRET, now=NOW)


def test_accept_answers_200_with_the_balance_as_the_contract_writes_it(openapi):
    answer = seamless.accept(Decimal("989.5"))
    assert answer.status == 200
    assert answer.headers["Content-Type"] == "application/json"
    assert answer.json() == {"balance": "989.5000"}
    schema = response_schema(openapi, "200")
    assert set(answer.json()) <= set(schema["properties"]) and set(schema["required"]) <= set(answer.json())
    assert amount_pattern(openapi).match(answer.json()["balance"])
    assert seamless.accept(0).json() == {"balance": "0.0000"}
    assert seamless.accept("12.3").json() == {"balance": "12.3000"}


def test_refuse_answers_422_with_a_code_and_the_balance(openapi):
    answer = seamless.refuse("insufficient_funds", balance=Decimal("3.25"))
    assert answer.status == 422
    assert answer.json() == {"code": "insufficient_funds", "balance": "3.2500"}
    schema = response_schema(openapi, "422")
    assert set(answer.json()) <= set(schema["properties"]) and set(schema["required"]) <= set(answer.json())
    assert seamless.refuse("wallet_refused").json() == {"code": "wallet_refused"}


@pytest.mark.parametrize("balance", [Decimal("-1"), Decimal("0.00001"), Decimal("1E+16"), "abc"])
def test_a_balance_outside_the_contract_is_refused_here_not_sent(balance):
    with pytest.raises(ValueError):
        seamless.accept(balance)


def test_a_float_balance_is_refused():
    with pytest.raises(TypeError):
        seamless.accept(1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("code", ["Insufficient", "", "has space", "x" * 65])
def test_a_code_the_platform_would_not_read_as_a_refusal_is_refused(code):
    with pytest.raises(ValueError):
        seamless.refuse(code)
    with pytest.raises(ValueError):
        seamless.refuse("ok", status=500)


def test_handle_verifies_then_applies_and_answers():
    seen = []
    wallet = {"p": Decimal("100")}

    def on_call(call: WalletCall):
        seen.append(call)
        if call.action == "debit":
            if call.amount > wallet[call.player_id]:
                return seamless.refuse("insufficient_funds", balance=wallet[call.player_id])
            wallet[call.player_id] -= call.amount
        return wallet[call.player_id]

    base = {"session_id": "s", "player_id": "p", "game_id": "g:x", "currency": "EUR"}
    payload, headers = signed_call({**base, "action": "debit", "transaction_id": "t", "round_id": "r", "amount": "2.5"})
    assert seamless.handle(payload, headers, SECRET, on_call, now=NOW).json() == {"balance": "97.5000"}
    payload, headers = signed_call({**base, "action": "debit", "transaction_id": "u", "round_id": "r", "amount": "500"})
    refused = seamless.handle(payload, headers, SECRET, on_call, now=NOW)
    assert (refused.status, refused.json()) == (422, {"code": "insufficient_funds", "balance": "97.5000"})
    rejected = []
    forged = seamless.handle(payload, headers, "whsec_" + base64.b64encode(b"z" * 32).decode(), on_call,
                             now=NOW, on_rejected=rejected.append)
    assert forged.status == 401 and forged.json() == {"code": "invalid_signature"}
    assert len(seen) == 2 and len(rejected) == 1
