"""The client's namespaces, one per resource of the API. Each method is one operation of the OpenAPI
document (its operationId is recorded on it, and a test checks every operator operation has one with
exactly the operation's parameters)."""

from __future__ import annotations

import datetime as _dt
import uuid
from decimal import Decimal
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Type,
    TypeVar,
    Union,
)
from urllib.parse import quote

from ._model import Model, decimal_string, format_datetime, to_json_value
from ._pagination import CursorPage
from .types import (
    Currency,
    Event,
    EventType,
    FreeRoundCampaign,
    FreeRoundGrant,
    FreeRoundPlayersAdded,
    Game,
    GgrReport,
    ReconciliationPage,
    Statement,
    GameSession,
    Jurisdiction,
    LossLimits,
    PlayerRestrictions,
    Provider,
    Round,
    RoundDetail,
    SandboxPlayer,
    SandboxFixtureSettled,
    SandboxReset,
    SportsbookBet,
    Transaction,
    Wallet,
    WalletCheckReport,
    WalletSettings,
    WalletSettingsUpdated,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEndpointCreated,
)

if TYPE_CHECKING:
    from ._client import Client

__all__ = ["NOT_GIVEN", "NotGiven", "Amount", "operation"]

F = TypeVar("F", bound=Callable[..., Any])
M = TypeVar("M", bound=Model)

# Money going out: a Decimal, an int or a decimal string. Never a float, which cannot hold most
# amounts exactly (a float is refused with a TypeError).
Amount = Union[Decimal, int, str]
Instant = Union[_dt.datetime, str]


class NotGiven:
    """The default of optional body members: left out of the request. ``None`` sends ``null``,
    which clears a member where the API allows it."""

    _instance: Optional["NotGiven"] = None

    def __new__(cls) -> "NotGiven":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()


def operation(operation_id: str, media: Optional[str] = None) -> Callable[[F], F]:
    """Records which operation of the OpenAPI document a method calls, and the media type it asks
    for when not JSON (a second method of the same operation, answering bytes)."""

    def mark(method: F) -> F:
        if media is None:
            method.__operation_id__ = operation_id  # type: ignore[attr-defined]
        else:
            method.__media_operation__ = (operation_id, media)  # type: ignore[attr-defined]
        return method

    return mark


def _segment(value: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("a path parameter must be a non-empty string")
    return quote(value, safe="")


def _query(**parameters: Any) -> Dict[str, str]:
    query = {}
    for name, value in parameters.items():
        if value is None or value is NOT_GIVEN:
            continue
        if isinstance(value, bool):
            query[name] = "true" if value else "false"
        elif isinstance(value, _dt.datetime):
            query[name] = format_datetime(value)
        else:
            query[name] = str(value)
    return query


def _body(**members: Any) -> Dict[str, Any]:
    return {name: to_json_value(value) for name, value in members.items() if value is not NOT_GIVEN}


def _amount_or_null(value: Any) -> Any:
    return None if value is None else decimal_string(value)


def _amounts(values: Any) -> Any:
    if values is NOT_GIVEN or values is None:
        return values
    return {currency: decimal_string(amount) for currency, amount in values.items()}


def _loss_limits(values: Any) -> Any:
    if values is NOT_GIVEN or values is None:
        return values
    result = {}
    for currency, limits in values.items():
        if isinstance(limits, LossLimits):
            limits = {name: getattr(limits, name) for name in ("day", "week", "month")}
            limits = {name: value for name, value in limits.items() if value is not None}
        result[currency] = {period: _amount_or_null(amount) for period, amount in limits.items()}
    return result


def _instant(value: Any) -> Any:
    if value is NOT_GIVEN or value is None:
        return value
    return format_datetime(value)


class _Resource:
    def __init__(self, client: "Client") -> None:
        self._client = client

    def _get(self, path: str, model: Type[M], **query: Any) -> M:
        return model.from_dict(self._client.request("GET", path, query=_query(**query), repeatable=True))

    def _page(self, path: str, model: Type[M], query: Dict[str, Any]) -> CursorPage[M]:
        def fetch(cursor: Optional[str]) -> CursorPage[M]:
            parameters = dict(query, cursor=cursor) if cursor else query
            body = self._client.request("GET", path, query=_query(**parameters), repeatable=True)
            return CursorPage.from_json(body, model, fetch)

        return fetch(query.get("cursor"))

    def _send(
        self,
        method: str,
        path: str,
        model: Type[M],
        body: Any = None,
        *,
        repeatable: bool,
        idempotency_key: Optional[str] = None,
    ) -> M:
        answer = self._client.request(
            method, path, body=body, repeatable=repeatable, idempotency_key=idempotency_key
        )
        return model.from_dict(answer)


class Sessions(_Resource):
    """Game sessions: a player's launch of a game, with its signed launch URL."""

    @operation("createSession")
    def create(
        self,
        *,
        player_id: str,
        game_id: str,
        currency: str,
        country: Union[str, NotGiven] = NOT_GIVEN,
        jurisdiction: Union[str, NotGiven] = NOT_GIVEN,
        kyc_status: Union[Literal["unverified", "pending", "verified", "rejected"], NotGiven] = NOT_GIVEN,
        reality_check_minutes: Union[int, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
    ) -> GameSession:
        """Creates a session; its ``launch_url`` is where the player starts the game.

        Every attempt of this call carries the same Idempotency-Key (a new UUID unless you pass
        one), so a retry replays the first answer instead of creating a second session. Pass your
        own (an order id, say) to make your own retries safe too, across processes."""
        body = _body(
            player_id=player_id,
            game_id=game_id,
            currency=currency,
            country=country,
            jurisdiction=jurisdiction,
            kyc_status=kyc_status,
            reality_check_minutes=reality_check_minutes,
        )
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        return self._send("POST", "/v3/sessions", GameSession, body, repeatable=True, idempotency_key=key)

    @operation("getSession")
    def get(self, id: str) -> GameSession:
        """One of your sessions; ``launch_url`` is freshly signed while it can still be launched."""
        return self._get(f"/v3/sessions/{_segment(id)}", GameSession)

    @operation("listSessions")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        player_id: Optional[str] = None,
        status: Optional[Literal["created", "active", "closed", "expired"]] = None,
    ) -> CursorPage[GameSession]:
        """Your sessions, newest first."""
        return self._page(
            "/v3/sessions",
            GameSession,
            dict(limit=limit, cursor=cursor, player_id=player_id, status=status),
        )

    @operation("closeSession")
    def close(self, id: str) -> GameSession:
        """Ends a session: no more bets; wins and rollbacks of rounds played still settle. Closing
        again changes nothing, so the call is retried like a read."""
        return self._send("POST", f"/v3/sessions/{_segment(id)}/close", GameSession, repeatable=True)


class Games(_Resource):
    """The game catalogue."""

    @operation("listGames")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        provider: Optional[str] = None,
        category: Optional[
            Literal[
                "slots",
                "live_casino",
                "table_games",
                "game_show",
                "crash",
                "instant",
                "scratch",
                "bingo",
                "jackpot",
            ]
        ] = None,
        currency: Optional[str] = None,
        country: Optional[str] = None,
        jurisdiction: Optional[str] = None,
        updated_since: Optional[Instant] = None,
    ) -> CursorPage[Game]:
        """Active games (every change since ``updated_since``, for a sync)."""
        return self._page(
            "/v3/games",
            Game,
            dict(
                limit=limit,
                cursor=cursor,
                provider=provider,
                category=category,
                currency=currency,
                country=country,
                jurisdiction=jurisdiction,
                updated_since=updated_since,
            ),
        )

    @operation("getGame")
    def get(self, game_id: str) -> Game:
        """One active game by its ``<provider slug>:<game code>``."""
        return self._get(f"/v3/games/{_segment(game_id)}", Game)


class Providers(_Resource):
    @operation("listProviders")
    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> CursorPage[Provider]:
        """Active providers, each with its count of active games."""
        return self._page("/v3/providers", Provider, dict(limit=limit, cursor=cursor))


class Currencies(_Resource):
    @operation("listCurrencies")
    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> CursorPage[Currency]:
        return self._page("/v3/currencies", Currency, dict(limit=limit, cursor=cursor))


class Jurisdictions(_Resource):
    @operation("listJurisdictions")
    def list(
        self, *, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> CursorPage[Jurisdiction]:
        return self._page("/v3/jurisdictions", Jurisdiction, dict(limit=limit, cursor=cursor))

    @operation("getJurisdiction")
    def get(self, code: str) -> Jurisdiction:
        """One jurisdiction and the rules its sessions follow (``GB``, ``MT``, ...)."""
        return self._get(f"/v3/jurisdictions/{_segment(code)}", Jurisdiction)


class Wallets(_Resource):
    @operation("listWallets")
    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> CursorPage[Wallet]:
        """Your float's balances, one per currency (none for a test key)."""
        return self._page("/v3/wallets", Wallet, dict(limit=limit, cursor=cursor))


class Transactions(_Resource):
    @operation("listTransactions")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        currency: Optional[str] = None,
        type: Optional[Literal["deposit", "withdraw", "adjustment", "bet", "win", "fee"]] = None,
        created_after: Optional[Instant] = None,
        created_before: Optional[Instant] = None,
    ) -> CursorPage[Transaction]:
        """Your ledger, newest first."""
        return self._page(
            "/v3/transactions",
            Transaction,
            dict(
                limit=limit,
                cursor=cursor,
                currency=currency,
                type=type,
                created_after=created_after,
                created_before=created_before,
            ),
        )


class Rounds(_Resource):
    @operation("listRounds")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        status: Optional[Literal["open", "closed", "cancelled"]] = None,
        player_id: Optional[str] = None,
        session_id: Optional[str] = None,
        opened_before: Optional[Instant] = None,
    ) -> CursorPage[Round]:
        """Your rounds, newest first (``status="open"`` with ``opened_before``: rounds left open)."""
        return self._page(
            "/v3/rounds",
            Round,
            dict(
                limit=limit,
                cursor=cursor,
                status=status,
                player_id=player_id,
                session_id=session_id,
                opened_before=opened_before,
            ),
        )

    @operation("getRound")
    def get(self, id: str) -> RoundDetail:
        """One round with its transactions."""
        return self._get(f"/v3/rounds/{_segment(id)}", RoundDetail)


class SportsbookBets(_Resource):
    """Sportsbook bets placed in your sessions, each with every settlement."""

    @operation("listSportsbookBets")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        status: Optional[Literal["reserved", "open", "settled", "closed", "discarded"]] = None,
        player_id: Optional[str] = None,
        settled_after: Optional[Instant] = None,
    ) -> CursorPage[SportsbookBet]:
        """Your sportsbook bets, newest first."""
        return self._page(
            "/v3/sportsbook/bets",
            SportsbookBet,
            dict(limit=limit, cursor=cursor, status=status, player_id=player_id, settled_after=settled_after),
        )

    @operation("getSportsbookBet")
    def get(self, id: str) -> SportsbookBet:
        """One sportsbook bet (its ``id``, not the provider's ``bet_id``) with every settlement."""
        return self._get(f"/v3/sportsbook/bets/{_segment(id)}", SportsbookBet)


class FreeRoundCampaigns(_Resource):
    """Free rounds: campaigns of rounds at a fixed stake that cost your players nothing."""

    @operation("createFreeRoundCampaign")
    def create(
        self,
        *,
        external_id: str,
        name: str,
        game_ids: Sequence[str],
        currency: str,
        bet_amount: Amount,
        rounds: int,
        valid_until: Instant,
        valid_from: Union[Instant, NotGiven] = NOT_GIVEN,
        max_win: Union[Amount, NotGiven] = NOT_GIVEN,
        player_ids: Union[Sequence[str], NotGiven] = NOT_GIVEN,
    ) -> FreeRoundCampaign:
        """Creates a campaign. The same arguments under the same ``external_id`` answer the
        campaign as it is (so it is retried like a read); others are ``external_id_conflict``."""
        body = _body(
            external_id=external_id,
            name=name,
            game_ids=list(game_ids),
            currency=currency,
            bet_amount=decimal_string(bet_amount),
            rounds=rounds,
            valid_until=_instant(valid_until),
            valid_from=_instant(valid_from),
            max_win=max_win if max_win is NOT_GIVEN else decimal_string(max_win),
            player_ids=player_ids if player_ids is NOT_GIVEN else list(player_ids),
        )
        return self._send("POST", "/v3/free-rounds/campaigns", FreeRoundCampaign, body, repeatable=True)

    @operation("listFreeRoundCampaigns")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        status: Optional[Literal["scheduled", "active", "ended", "cancelled"]] = None,
    ) -> CursorPage[FreeRoundCampaign]:
        """Your campaigns, newest first."""
        return self._page("/v3/free-rounds/campaigns", FreeRoundCampaign, dict(limit=limit, cursor=cursor, status=status))

    @operation("getFreeRoundCampaign")
    def get(self, id: str) -> FreeRoundCampaign:
        return self._get(f"/v3/free-rounds/campaigns/{_segment(id)}", FreeRoundCampaign)

    @operation("cancelFreeRoundCampaign")
    def cancel(self, id: str) -> FreeRoundCampaign:
        """Grants not started end cancelled; one in play finishes its open round. A repeat answers
        the cancelled campaign, so it is retried like a read."""
        return self._send(
            "POST", f"/v3/free-rounds/campaigns/{_segment(id)}/cancel", FreeRoundCampaign, None, repeatable=True
        )

    @operation("addFreeRoundPlayers")
    def add_players(self, id: str, *, player_ids: Sequence[str]) -> FreeRoundPlayersAdded:
        """Up to 1,000 players a call; players granted already are left as they are (so it is
        retried like a read)."""
        return self._send(
            "POST",
            f"/v3/free-rounds/campaigns/{_segment(id)}/players",
            FreeRoundPlayersAdded,
            _body(player_ids=list(player_ids)),
            repeatable=True,
        )

    @operation("cancelFreeRoundGrant")
    def remove_player(self, id: str, player_id: str) -> FreeRoundGrant:
        """Cancels one player's grant, started or not (a round in play still settles). A cancelled
        grant is answered as it is (so it is retried like a read); one that is over is
        ``campaign_ended`` or ``grant_completed``."""
        return self._send(
            "DELETE",
            f"/v3/free-rounds/campaigns/{_segment(id)}/players/{_segment(player_id)}",
            FreeRoundGrant,
            repeatable=True,
        )


class FreeRoundGrants(_Resource):
    """A campaign's rounds given to each player."""

    @operation("listFreeRoundGrants")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        player_id: Optional[str] = None,
        campaign_id: Optional[str] = None,
        status: Optional[Literal["pending", "in_progress", "completed", "expired", "cancelled"]] = None,
    ) -> CursorPage[FreeRoundGrant]:
        """Your grants, newest first."""
        return self._page(
            "/v3/free-rounds/grants",
            FreeRoundGrant,
            dict(limit=limit, cursor=cursor, player_id=player_id, campaign_id=campaign_id, status=status),
        )

    @operation("getFreeRoundGrant")
    def get(self, id: str) -> FreeRoundGrant:
        return self._get(f"/v3/free-rounds/grants/{_segment(id)}", FreeRoundGrant)


class Reports(_Resource):
    """Reports and reconciliation: GGR by day, provider, game, currency and player; every round
    transaction of a day; monthly statements."""

    @operation("getGgrReport")
    def ggr(
        self,
        *,
        from_: Union[str, _dt.date, None] = None,
        to: Union[str, _dt.date, None] = None,
        group_by: Optional[Sequence[Literal["day", "provider", "game", "currency", "player"]]] = None,
        currency: Optional[str] = None,
        provider: Optional[str] = None,
        game_id: Optional[str] = None,
    ) -> GgrReport:
        """Bets, wins, rolled-back and voided bets, GGR, rounds and players from ``from_`` to ``to``
        (UTC days, both included, at most 366; both required), in cells of one currency."""
        query = {
            "from": from_,
            "to": to,
            "group_by": None if group_by is None else ",".join(group_by),
            "currency": currency,
            "provider": provider,
            "game_id": game_id,
        }
        return self._get("/v3/reports/ggr", GgrReport, **query)

    @operation("listReconciliationTransactions")
    def reconciliation(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        date: Union[str, _dt.date, None] = None,
        from_: Optional[Instant] = None,
        to: Optional[Instant] = None,
    ) -> ReconciliationPage:
        """One page of the round transactions of a UTC ``date`` (or ``from_`` to ``to``), oldest
        first; the first page (no ``cursor``) carries the range's totals per currency."""
        query = {"limit": limit, "cursor": cursor, "date": date, "from": from_, "to": to}
        return self._get("/v3/reconciliation/transactions", ReconciliationPage, **query)

    @operation("listReconciliationTransactions", media="text/csv")
    def reconciliation_csv(
        self,
        *,
        date: Union[str, _dt.date, None] = None,
        from_: Optional[Instant] = None,
        to: Optional[Instant] = None,
    ) -> bytes:
        """The whole range as one CSV, as a spreadsheet opens it, in the bytes the API sent: a
        UTF-8 byte order mark, a header row, a line per round transaction oldest first (RFC 4180
        quoting, CRLF; a text cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return
        is prefixed with ``'`` so a spreadsheet does not run it). Write it to a file as it is, or
        read it with ``csv.reader(io.StringIO(data.decode("utf-8-sig")))``. Read whole, within
        the client's timeout."""
        query = {"date": date, "from": from_, "to": to}
        return self._client.request(
            "GET", "/v3/reconciliation/transactions", query=_query(**query), repeatable=True, accept="text/csv"
        )

    @operation("getStatement")
    def statement(self, month: str) -> Statement:
        """The statement of a month (``"2026-10"``): GGR per provider and currency, your fee rate
        and the amount due."""
        return self._get(f"/v3/statements/{_segment(month)}", Statement)


class WalletSettingsResource(_Resource):
    """Transfer mode (your float here funds play) or seamless (calls to your wallet)."""

    @operation("getWalletSettings")
    def get(self) -> WalletSettings:
        return self._get("/v3/wallet-settings", WalletSettings)

    @operation("putWalletSettings")
    def update(
        self,
        *,
        mode: Literal["transfer", "seamless"],
        url: Union[str, NotGiven] = NOT_GIVEN,
        rotate_secret: Union[bool, NotGiven] = NOT_GIVEN,
        low_balance_alerts: Union[Mapping[str, Amount], NotGiven] = NOT_GIVEN,
    ) -> WalletSettingsUpdated:
        """Sets the mode; the answer carries the signing secret when one was made (the first switch
        to seamless, or ``rotate_secret=True``), this once. A rotation is not retried after a
        network failure: run twice, it would replace the secret it just made."""
        body = _body(
            mode=mode,
            url=url,
            rotate_secret=rotate_secret,
            low_balance_alerts=_amounts(low_balance_alerts),
        )
        return self._send(
            "PUT", "/v3/wallet-settings", WalletSettingsUpdated, body, repeatable=rotate_secret is not True
        )


class WebhookEndpoints(_Resource):
    """Where events are sent, signed with Standard Webhooks."""

    @operation("createWebhookEndpoint")
    def create(
        self,
        *,
        url: str,
        event_types: Union[Sequence[EventType], NotGiven] = NOT_GIVEN,
        description: Union[str, NotGiven] = NOT_GIVEN,
    ) -> WebhookEndpointCreated:
        """Registers an endpoint; the answer carries its signing secret, this once. The API takes no
        Idempotency-Key here, so a network failure is not retried (it could add a second one)."""
        body = _body(
            url=url,
            event_types=event_types if isinstance(event_types, NotGiven) else list(event_types),
            description=description,
        )
        return self._send("POST", "/v3/webhook-endpoints", WebhookEndpointCreated, body, repeatable=False)

    @operation("listWebhookEndpoints")
    def list(
        self, *, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> CursorPage[WebhookEndpoint]:
        return self._page("/v3/webhook-endpoints", WebhookEndpoint, dict(limit=limit, cursor=cursor))

    @operation("getWebhookEndpoint")
    def get(self, id: str) -> WebhookEndpoint:
        return self._get(f"/v3/webhook-endpoints/{_segment(id)}", WebhookEndpoint)

    @operation("updateWebhookEndpoint")
    def update(
        self,
        id: str,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        event_types: Union[Sequence[EventType], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
    ) -> WebhookEndpoint:
        """Changes what is given (``description=None`` clears it); a disabled endpoint gets no new
        deliveries."""
        body = _body(
            url=url,
            event_types=event_types if isinstance(event_types, NotGiven) else list(event_types),
            enabled=enabled,
            description=description,
        )
        return self._send(
            "PATCH", f"/v3/webhook-endpoints/{_segment(id)}", WebhookEndpoint, body, repeatable=True
        )

    @operation("deleteWebhookEndpoint")
    def delete(self, id: str) -> WebhookEndpoint:
        """Removes it (not retried after a network failure: a repeat would answer 404)."""
        return self._send("DELETE", f"/v3/webhook-endpoints/{_segment(id)}", WebhookEndpoint, repeatable=False)

    @operation("rotateWebhookSecret")
    def rotate_secret(self, id: str) -> WebhookEndpointCreated:
        """A new secret, this once; deliveries carry a signature with the old one too for a day."""
        return self._send(
            "POST", f"/v3/webhook-endpoints/{_segment(id)}/rotate-secret", WebhookEndpointCreated, repeatable=False
        )

    @operation("testWebhookEndpoint")
    def test(self, id: str) -> Event:
        """Queues an ``endpoint.ping`` event for this endpoint alone."""
        return self._send("POST", f"/v3/webhook-endpoints/{_segment(id)}/test", Event, repeatable=False)


class Events(_Resource):
    """What happened, as the webhook deliveries carry it."""

    @operation("listEvents")
    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        type: Optional[EventType] = None,
    ) -> CursorPage[Event]:
        return self._page("/v3/events", Event, dict(limit=limit, cursor=cursor, type=type))

    @operation("getEvent")
    def get(self, id: str) -> Event:
        return self._get(f"/v3/events/{_segment(id)}", Event)

    @operation("listEventDeliveries")
    def deliveries(self, id: str) -> List[WebhookDelivery]:
        """Its deliveries, each with every attempt."""
        body = self._client.request("GET", f"/v3/events/{_segment(id)}/deliveries", repeatable=True)
        return [WebhookDelivery.from_dict(item) for item in body.get("data") or []]

    @operation("redeliverEvent")
    def redeliver(self, id: str) -> List[WebhookDelivery]:
        """Sends it again now to each endpoint that wants it (delivery is at least once anyway, so a
        repeat does no harm and the call is retried like a read)."""
        body = self._client.request("POST", f"/v3/events/{_segment(id)}/redeliver", repeatable=True)
        return [WebhookDelivery.from_dict(item) for item in body.get("data") or []]


class Players(_Resource):
    """Your players' responsible-gaming restrictions."""

    @operation("getPlayerRestrictions")
    def get_restrictions(self, player_id: str) -> PlayerRestrictions:
        return self._get(f"/v3/players/{_segment(player_id)}/restrictions", PlayerRestrictions)

    @operation("putPlayerRestrictions")
    def set_restrictions(
        self,
        player_id: str,
        *,
        self_excluded_until: Union[Instant, None, NotGiven] = NOT_GIVEN,
        self_excluded_indefinitely: Union[bool, NotGiven] = NOT_GIVEN,
        cool_off_until: Union[Instant, None, NotGiven] = NOT_GIVEN,
        loss_limits: Union[
            Mapping[str, Union[LossLimits, Mapping[str, Optional[Amount]]]], NotGiven
        ] = NOT_GIVEN,
        stake_limits: Union[Mapping[str, Amount], NotGiven] = NOT_GIVEN,
        session_time_limit_minutes: Union[int, None, NotGiven] = NOT_GIVEN,
    ) -> PlayerRestrictions:
        """Replaces the whole set: what is left out is lifted, where it may be (a running exclusion
        cannot be shortened: ``ConflictError`` ``exclusion_active``). The same set sent twice is
        the same state, so the call is retried like a read."""
        body = _body(
            self_excluded_until=_instant(self_excluded_until),
            self_excluded_indefinitely=self_excluded_indefinitely,
            cool_off_until=_instant(cool_off_until),
            loss_limits=_loss_limits(loss_limits),
            stake_limits=_amounts(stake_limits),
            session_time_limit_minutes=session_time_limit_minutes,
        )
        return self._send(
            "PUT", f"/v3/players/{_segment(player_id)}/restrictions", PlayerRestrictions, body, repeatable=True
        )


class Sandbox(_Resource):
    """Test mode rehearsals (test keys only)."""

    @operation("createSandboxPlayer")
    def create_player(
        self,
        *,
        player_id: str,
        currency: str,
        balance: Amount,
        behaviour: Union[
            Literal["normal", "insufficient_funds", "failing_wallet", "slow_wallet"], NotGiven
        ] = NOT_GIVEN,
    ) -> SandboxPlayer:
        """Gives a test player a balance in a currency; made again, it is reset (so it is retried
        like a read)."""
        body = _body(player_id=player_id, currency=currency, balance=decimal_string(balance), behaviour=behaviour)
        return self._send("POST", "/v3/sandbox/players", SandboxPlayer, body, repeatable=True)

    @operation("getSandboxPlayer")
    def get_player(self, player_id: str) -> List[SandboxPlayer]:
        """A test player's balance and behaviour in each currency it has one in (``NotFoundError``
        when it has none)."""
        body = self._client.request("GET", f"/v3/sandbox/players/{_segment(player_id)}", repeatable=True)
        return [SandboxPlayer.from_dict(item) for item in body.get("data") or []]

    @operation("checkSandboxWallet")
    def check_wallet(self, *, player_id: str, currency: str) -> WalletCheckReport:
        """Plays the seamless self-check against your test wallet (not retried after a network
        failure: it would play every scenario again)."""
        body = _body(player_id=player_id, currency=currency)
        return self._send("POST", "/v3/sandbox/wallet-checks", WalletCheckReport, body, repeatable=False)

    @operation("resetSandbox")
    def reset(self) -> SandboxReset:
        """Puts your test world back: removes your test players, their restrictions and your test
        webhook endpoints, sets your test wallet to transfer, closes your test sessions, ends your
        test rounds, free rounds and sportsbook bets (moving no money) and clears the demo fixtures'
        outcomes; says how many of each. A second reset finds nothing, so it is retried like a read."""
        return self._send("POST", "/v3/sandbox/reset", SandboxReset, None, repeatable=True)

    @operation("settleSandboxFixture")
    def settle_fixture(self, fixture_id: str, *, outcome: Literal["home", "draw", "away"]) -> SandboxFixtureSettled:
        """Gives a demo sportsbook fixture its outcome (``fixture_settled`` if it has one): each of
        your test bets of ``cgs-sandbox:sportsbook`` naming it is settled as its legs say, through
        the provider API's engine. Not retried: a second settle is refused."""
        return self._send("POST", f"/v3/sandbox/sportsbook/fixtures/{_segment(fixture_id)}/settle", SandboxFixtureSettled,
                          _body(outcome=outcome), repeatable=False)

    @operation("resettleSandboxFixture")
    def resettle_fixture(self, fixture_id: str, *, outcome: Literal["home", "draw", "away"]) -> SandboxFixtureSettled:
        """Changes a settled fixture's outcome (``fixture_not_settled`` if it has none): its bets are
        resettled, for the player or against them. The same outcome again changes nothing, so it is
        retried like a read."""
        return self._send("POST", f"/v3/sandbox/sportsbook/fixtures/{_segment(fixture_id)}/resettle", SandboxFixtureSettled,
                          _body(outcome=outcome), repeatable=True)

    @operation("voidSandboxFixture")
    def void_fixture(self, fixture_id: str) -> SandboxFixtureSettled:
        """Voids a demo sportsbook fixture, settled or not: its legs count as void."""
        return self._send("POST", f"/v3/sandbox/sportsbook/fixtures/{_segment(fixture_id)}/void", SandboxFixtureSettled,
                          None, repeatable=True)


class Discovery(_Resource):
    """The public documents: the launch tokens' key set and the OpenAPI description."""

    @operation("getJwks")
    def jwks(self) -> Dict[str, Any]:
        return self._client.request("GET", "/v3/.well-known/jwks.json", repeatable=True)  # type: ignore[no-any-return]

    @operation("getOpenApiDescription")
    def openapi(self) -> Dict[str, Any]:
        return self._client.request("GET", "/v3/openapi.json", repeatable=True)  # type: ignore[no-any-return]
