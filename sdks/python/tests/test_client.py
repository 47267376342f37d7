"""The client over a scripted local server: requests as the API expects them, pages followed by
cursor, errors typed with their problem bodies."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest import Reply, problem

import casino_gaming
from casino_gaming.types import Game

GAME = {
    "game_id": "pragmatic-play:vs20olympgate", "provider": "pragmatic-play", "code": "vs20olympgate",
    "name": "Olympian Gates", "category": "slots", "status": "active", "rtp": "96.50", "volatility": "high",
    "features": ["free_spins"], "platforms": ["desktop", "mobile"], "thumbnail_url": None,
    "released_on": None, "currencies": [], "restricted_countries": [], "jurisdictions": [], "demo": True,
    "updated_at": "2026-01-01T00:00:00Z",
}


def game(code: str) -> dict:
    return dict(GAME, game_id=f"p:{code}", code=code)


def query_of(request) -> dict:
    return {name: values[0] for name, values in parse_qs(urlsplit(request.path).query).items()}


def test_requests_carry_the_key_json_and_the_v3_path(fake_api):
    fake_api.script = [Reply(200, GAME)]
    client = fake_api.client()
    assert client.games.get("pragmatic-play:vs20olympgate").name == "Olympian Gates"
    request = fake_api.requests[0]
    assert request.method == "GET"
    assert request.path == "/functions/v1/v3/games/pragmatic-play%3Avs20olympgate"
    assert request.headers["authorization"] == "Bearer cgs_live_unit-test-key"
    assert request.headers["accept"] == "application/json"
    assert request.headers["user-agent"].startswith(f"casino-gaming-python/{casino_gaming.__version__}")
    assert "idempotency-key" not in request.headers


def test_path_parameters_are_escaped(fake_api):
    fake_api.script = [Reply(404, problem(404, "not_found"))]
    with pytest.raises(casino_gaming.NotFoundError):
        fake_api.client().players.get_restrictions("a/b?c")
    assert fake_api.requests[0].path == "/functions/v1/v3/players/a%2Fb%3Fc/restrictions"


def test_iterating_a_list_follows_every_page_by_cursor(fake_api):
    fake_api.script = [
        Reply(200, {"data": [game("a"), game("b")], "next_cursor": "c1", "has_more": True}),
        Reply(200, {"data": [game("c"), game("d")], "next_cursor": "c2", "has_more": True}),
        Reply(200, {"data": [game("e")], "next_cursor": None, "has_more": False}),
    ]
    page = fake_api.client().games.list(limit=2, category="slots")
    assert [g.code for g in page.data] == ["a", "b"] and page.has_more
    codes = [g.code for g in page]
    assert codes == ["a", "b", "c", "d", "e"]
    assert all(isinstance(g, Game) for g in page.data)
    queries = [query_of(request) for request in fake_api.requests]
    assert queries == [
        {"limit": "2", "category": "slots"},
        {"limit": "2", "category": "slots", "cursor": "c1"},
        {"limit": "2", "category": "slots", "cursor": "c2"},
    ]


def test_pages_can_be_walked_one_at_a_time(fake_api):
    fake_api.script = [
        Reply(200, {"data": [game("a")], "next_cursor": "c1", "has_more": True}),
        Reply(200, {"data": [game("b")], "next_cursor": None, "has_more": False}),
    ]
    first = fake_api.client().games.list(limit=1)
    second = first.next_page()
    assert [g.code for g in second.data] == ["b"] and not second.has_next_page()
    with pytest.raises(LookupError):
        second.next_page()


def test_a_page_is_fetched_only_when_the_previous_is_used_up(fake_api):
    fake_api.script = [
        Reply(200, {"data": [game("a"), game("b")], "next_cursor": "c1", "has_more": True}),
        Reply(200, {"data": [game("c")], "next_cursor": None, "has_more": False}),
    ]
    iterator = iter(fake_api.client().games.list(limit=2))
    next(iterator), next(iterator)
    assert len(fake_api.requests) == 1
    next(iterator)
    assert len(fake_api.requests) == 2


def test_an_error_on_a_later_page_is_raised_while_iterating(fake_api):
    fake_api.script = [
        Reply(200, {"data": [game("a")], "next_cursor": "bad", "has_more": True}),
        Reply(400, problem(400, "invalid_parameters", errors=[
            {"parameter": "cursor", "code": "invalid_cursor", "detail": "cursor must be a next_cursor."}])),
    ]
    page = fake_api.client().games.list()
    with pytest.raises(casino_gaming.BadRequestError) as raised:
        list(page)
    assert raised.value.errors[0].parameter == "cursor"


def test_an_error_carries_the_whole_problem(fake_api):
    body = problem(400, "validation_failed", errors=[
        {"pointer": "#/player_id", "code": "invalid_format", "detail": "player_id must not be empty."},
        {"pointer": "#/currency", "code": "invalid_format", "detail": "currency must be three capitals."},
    ])
    fake_api.script = [Reply(400, body)]
    with pytest.raises(casino_gaming.BadRequestError) as raised:
        fake_api.client().sessions.create(player_id="", game_id="nope", currency="eur")
    error = raised.value
    assert (error.status, error.code, error.title, error.detail, error.retryable) == (
        400, "validation_failed", "validation failed", "validation_failed happened.", False)
    assert [(e.pointer, e.code) for e in error.errors] == [("#/player_id", "invalid_format"), ("#/currency", "invalid_format")]
    assert error.problem is not None and error.problem.code == "validation_failed"
    assert error.body == body
    assert "#/currency" in str(error)


def test_an_answer_without_a_problem_body_is_still_typed(fake_api):
    fake_api.script = [Reply(502, None)]
    with pytest.raises(casino_gaming.InternalServerError) as raised:
        fake_api.client(max_retries=0).games.list()
    assert raised.value.status == 502 and raised.value.code is None and raised.value.problem is None


def test_a_redirect_is_not_followed_so_the_key_stays_here(fake_api):
    fake_api.script = [Reply(302, None, {"Location": "http://elsewhere.example/steal"})]
    with pytest.raises(casino_gaming.ApiError) as raised:
        fake_api.client().wallets.list()
    assert raised.value.status == 302 and len(fake_api.requests) == 1


def test_optional_members_are_left_out_unless_given_and_none_sends_null(fake_api):
    endpoint = {
        "id": "e", "url": "https://h.example/", "event_types": ["round.closed"], "enabled": False,
        "description": None, "secret_prefix": "whsec_ab", "livemode": True,
        "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
    }
    fake_api.script = [Reply(200, endpoint), Reply(200, endpoint)]
    client = fake_api.client()
    client.webhook_endpoints.update("e", enabled=False)
    client.webhook_endpoints.update("e", description=None, event_types=("round.closed",))
    assert fake_api.requests[0].json() == {"enabled": False}
    assert fake_api.requests[1].json() == {"event_types": ["round.closed"], "description": None}
    assert fake_api.requests[0].method == "PATCH"
    assert fake_api.requests[0].headers["content-type"] == "application/json"


def test_the_api_key_never_shows_in_a_repr_or_an_error(fake_api):
    fake_api.script = [Reply(401, problem(401, "invalid_api_key"))]
    client = fake_api.client()
    with pytest.raises(casino_gaming.AuthenticationError) as raised:
        client.sessions.get("0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90")
    assert "unit-test-key" not in repr(client) and "unit-test-key" not in str(raised.value)


def test_the_key_and_url_come_from_the_environment_by_default(monkeypatch):
    monkeypatch.setenv("CGS_API_KEY", "cgs_test_from-env")
    monkeypatch.setenv("CGS_API_URL", "https://ref.supabase.co/functions/v1/")
    client = casino_gaming.Client()
    assert client.api_key == "cgs_test_from-env"
    assert client.base_url == "https://ref.supabase.co/functions/v1"
    monkeypatch.delenv("CGS_API_URL")
    assert casino_gaming.Client().base_url == casino_gaming.DEFAULT_BASE_URL


def test_the_default_base_url_is_the_server_the_document_names(openapi):
    assert casino_gaming.DEFAULT_BASE_URL in [server["url"] for server in openapi["servers"]]


def test_the_version_is_the_one_pyproject_names():
    import re
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == casino_gaming.__version__
    assert casino_gaming.__version__ == "1.9.3"


def test_the_package_is_typed():
    from pathlib import Path

    assert (Path(casino_gaming.__file__).parent / "py.typed").is_file()


def test_deliveries_and_redeliver_return_lists(fake_api):
    delivery = {"endpoint_id": "e", "status": "pending", "attempts": 0, "next_attempt_at": None,
                "delivered_at": None, "attempt_log": []}
    fake_api.script = [Reply(200, {"data": [delivery]}), Reply(200, {"data": [delivery]})]
    client = fake_api.client()
    assert client.events.deliveries("x")[0].status == "pending"
    assert client.events.redeliver("x")[0].endpoint_id == "e"
    assert fake_api.requests[1].method == "POST"
    assert json.loads(fake_api.requests[1].body or b"null") is None


def test_garbage_from_a_proxy_raises_casino_gaming_error(monkeypatch, fake_api):
    client = fake_api.client()
    monkeypatch.setattr(client, "_send", lambda *args: (200, {}, b"<html>proxy</html>"))
    with pytest.raises(casino_gaming.CasinoGamingError, match="not JSON"):
        client.wallet_settings.get()
