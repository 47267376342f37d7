// Generated from supabase/functions/v3/openapi.json by openapi-typescript (`npm run openapi:types`).
// Do not edit: change the OpenAPI document and regenerate.
export interface paths {
    "/v3/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's game sessions
         * @description Newest first, a page at a time. Each session is shown as `GET /v3/sessions/{id}` shows it: a freshly signed `launch_url` while it can be launched, `expired` after its launch window.
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Create a game session
         * @description Creates a session for one of the operator's players and returns it with a launch URL valid until `expires_at`. A retry with the same `Idempotency-Key` and body replays the first `201` byte for byte (`Idempotent-Replayed: true`). A rejected request writes nothing. The body is limited to 16 KiB.
         */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a game session
         * @description One of the calling client's sessions. While it can still be launched, `launch_url` carries a freshly signed launch token (same `exp`); once its launch window has closed, `status` is `expired` and `launch_url` is absent. Another client's session answers `404`, exactly like one that does not exist.
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/games": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the catalogue
         * @description Active games of active providers, in a stable order (by provider, in the order of its internal id, then by game code), a page at a time. Filters narrow the list. `updated_since` syncs only what changed since then, games that stopped being active included (with their `status`), so a copy of the catalogue can drop them.
         */
        get: operations["listGames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/games/{game_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a game
         * @description One active game of an active provider; any other `game_id` is `404`.
         */
        get: operations["getGame"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the providers
         * @description The active providers, in their order, with their counts of active games.
         */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/currencies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the currencies
         * @description The active currencies, in their order.
         */
        get: operations["listCurrencies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's wallets
         * @description Its balance in each currency it holds (spec 2.4), the primary first: the float that funds its players' play in transfer mode. With a test key: your test floats, one per currency your test players hold, each the sum of their balances (never primary); never a live wallet.
         */
        get: operations["listWallets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's ledger
         * @description Its money movements (spec 2.6), newest first in the order they were recorded, a page at a time. With a test key: the test ledger (test play in transfer mode, and the test balances you set, as `deposit` and `withdraw`), in the same shape; never a live movement, as a live key never sees a test one.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Launch-token public keys
         * @description The JSON Web Key Set game providers verify launch tokens (JWTs, `aud` = provider slug) with. Each key names its algorithm: `EdDSA` (an OKP Ed25519 key, the default) or `ES256` (an EC P-256 key, for deployments whose providers' JWT libraries lack EdDSA). Public; cache it as `Cache-Control` says.
         */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This API description
         * @description This OpenAPI 3.1 document, as the function serves it. The Postman collection generated from it is kept in the repository (`openapi/postman.json`).
         */
        get: operations["getOpenApiDescription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The player's balance
         * @description The balance a bet would be taken from, in the session's currency (transfer mode: the operator's float).
         */
        get: operations["providerBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/bets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a bet
         * @description Debits the bet (transfer mode: from the operator's float, `type bet`), opening its round if new. A bet the balance cannot cover is `422 insufficient_funds` with the balance, and writes nothing.
         */
        post: operations["providerBet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/wins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a win
         * @description Credits the win (`type win`; 0 moves nothing) on an open round of the session, settling the bet it names or every bet of the round.
         */
        post: operations["providerWin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/rollbacks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll back a bet
         * @description Gives a bet back (`type adjustment`). A round with nothing left at stake and nothing won is cancelled.
         */
        post: operations["providerRollback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's rounds
         * @description Rounds of the caller's sessions in its key's mode, newest first, a page at a time.
         */
        get: operations["listRounds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/rounds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a round
         * @description One of the caller's rounds with its transactions; anything else is `404`.
         */
        get: operations["getRound"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/wallet-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read your wallet mode
         * @description How your players' money moves, in your key's mode: `transfer` until you set it.
         */
        get: operations["getWalletSettings"];
        /**
         * Set your wallet mode
         * @description Sets `transfer` or `seamless` (with your wallet's `url`). The secret signing calls to your wallet (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) comes back once, when made. The mode cannot change while a round of yours is open.
         */
        put: operations["putWalletSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your webhook endpoints
         * @description In your key's mode, oldest first.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description Events of your key's mode of the types named (all when none) are sent to `url`, signed with the secret this answer shows once (Standard Webhooks: `webhook-id` is the event id, the same on every retry).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description One of yours in your key's mode; anything else is `404`.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Remove a webhook endpoint
         * @description Its pending deliveries go with it. Answers the endpoint as it was.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description The fields given: url, event types, enabled, description.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v3/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your events
         * @description The last 30 days in your key's mode, newest first.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an event
         * @description One of yours from the last 30 days; anything else is `404`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/events/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An event's deliveries
         * @description To each endpoint, with every attempt: when, the status code, how long, the error.
         */
        get: operations["listEventDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/events/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again
         * @description Now, to each of your enabled endpoints that wants its type, the retry schedule starting afresh; answers the deliveries.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's secret
         * @description A new secret, shown this once; for 24 hours deliveries carry a signature with each.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping
         * @description An `endpoint.ping` event to this endpoint alone, whatever types it wants; follow it with `GET /v3/events/{id}/deliveries`.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/jurisdictions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the jurisdictions
         * @description Every jurisdiction with its rules, and whether you hold its licence. Illustrative regimes, not legal advice.
         */
        get: operations["listJurisdictions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/jurisdictions/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a jurisdiction
         * @description One jurisdiction and its rules; an unknown code is `404`.
         */
        get: operations["getJurisdiction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/players/{player_id}/restrictions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a player's restrictions
         * @description Your player's responsible-gaming restrictions, in your key's mode; all empty when none were set.
         */
        get: operations["getPlayerRestrictions"];
        /**
         * Set a player's restrictions
         * @description Replaces the player's restrictions with these, at once: new sessions and bets in open sessions are refused from now on (wins and rollbacks still settle). A live player's running self-exclusion or cool-off cannot be lifted or shortened (`409 exclusion_active`); a test key's player's can, at once (regulators' rules are for real players). Each change is audited and is a `player.restrictions_updated` event.
         */
        put: operations["putPlayerRestrictions"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sessions/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a session
         * @description Ends one of your sessions (its player left): no more bets from now on (`session_closed` to the provider), while wins and rollbacks of rounds already played still settle. Closing a closed session changes nothing. Answers the session, as `GET` does; `session.closed` is sent to your webhook endpoints.
         */
        post: operations["closeSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/players": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or reset a test player
         * @description Test keys only (`403 live_key` for a live one). Gives a player of yours a test balance in a currency, replacing any before: your test sessions for that player and currency play with it in transfer mode, bets, wins and rollbacks moving it as the float moves for live sessions. The balance is a `deposit` to your test float in that currency (set again: a `deposit` or `withdraw` of the difference), a line of your test ledger (`GET /v3/transactions` with a test key); nothing reaches your live float or ledger. A balance that would take the test float to 10^16 is `400 validation_failed` (`#/balance`, `invalid_range`).
         */
        post: operations["createSandboxPlayer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/players/{player_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a test player
         * @description Test keys only (`403 live_key` for a live one). The test player's balance and behaviour in each currency it has one in, in currency code order; `404` when it has none.
         */
        get: operations["getSandboxPlayer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset your sandbox
         * @description Test keys only. Puts your test world back as a new account's is: removes your test players (and their balances, with the test floats and test ledger they made), your test players' restrictions, your test webhook endpoints (and their pending deliveries), puts your test wallet settings back to `transfer` (forgetting the test wallet's URL and secret), closes your test sessions, cancels the test rounds left open, ends the test free rounds left going (campaigns still running or to come and grants not finished are cancelled) and ends your test sportsbook bets (reserved or open ones `discarded`, settled ones `closed`, moving nothing, what they owed forgiven) and clears the demo fixtures' outcomes, so each settles again. Live records are never touched. Answers how many of each it removed. No body.
         */
        post: operations["resetSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/wallet-checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check your seamless wallet
         * @description Test keys only. Plays a fixed set of scenarios against the seamless wallet you set with a test key (`PUT /v3/wallet-settings`), signed as real calls are, with ids of their own (`cgs-check:...`): balance, debit, the same debit again (applied once), credit, rollback of a transaction never seen (2xx), a debit after its own rollback (refused), and a call with a wrong signature (refused). The net movement is nothing when the wallet behaves. `409 not_seamless` when your test mode is transfer.
         */
        post: operations["checkSandboxWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your free-round campaigns
         * @description In your key's mode, newest first, a page at a time.
         */
        get: operations["listFreeRoundCampaigns"];
        put?: never;
        /**
         * Create a free-round campaign
         * @description Players get `rounds` rounds of the games at `bet_amount`, free, between `valid_from` and `valid_until`; what they win is paid as wins. The same `external_id` with the same body answers the campaign as it is now (`200`), with another body `409`. Grants made here raise `free_rounds.grant.created`.
         */
        post: operations["createFreeRoundCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a free-round campaign
         * @description One of yours in your key's mode, with its grants counted; anything else is `404`.
         */
        get: operations["getFreeRoundCampaign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/campaigns/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a free-round campaign
         * @description No grant starts any more: grants not started end `cancelled` (`free_rounds.grant.cancelled` each); a grant in play takes no new free bet, but its open round settles. Raises `free_rounds.campaign.cancelled`. Cancelling a cancelled campaign answers it as it is; an ended one is `409 campaign_ended`.
         */
        post: operations["cancelFreeRoundCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/campaigns/{id}/players": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a campaign to players
         * @description Up to 1,000 players a call; a player already granted is left as is, so a repeat is harmless. Each new grant raises `free_rounds.grant.created`. A cancelled or ended campaign is `409`.
         */
        post: operations["addFreeRoundPlayers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/campaigns/{id}/players/{player_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel one player's free-round grant
         * @description Removes a player from a campaign: the player's grant ends `cancelled` at once (`free_rounds.grant.cancelled`) and takes no new free bet, whether it had started or not. A round already in play still settles, as after a campaign's cancel: what it wins is paid (up to `max_win`) and added to the grant's `total_win`, and a lump-sum grant may still take its payout. Cancelling a cancelled grant (by this call or its campaign's cancel) answers it as it is. A grant that is over is refused: `409 campaign_ended` once the campaign is past `valid_until` (its unfinished grants expired), `409 grant_completed` once every round was played and paid. To give the player rounds again, use another campaign.
         */
        delete: operations["cancelFreeRoundGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your free-round grants
         * @description In your key's mode, newest first, a page at a time.
         */
        get: operations["listFreeRoundGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/free-rounds/grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a free-round grant
         * @description One of yours in your key's mode; anything else is `404`.
         */
        get: operations["getFreeRoundGrant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/reports/ggr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GGR report
         * @description Bets (turnover), wins, rolled-back and voided bets, GGR, rounds and players of the caller's play in its key's mode, from `from` to `to` (UTC days, both included, at most 366), in cells of one currency grouped by any of `day`, `provider`, `game`, `player`. Computed from the round engine's rows: a movement counts in the day it happened, and a report read again shows late ones. Sportsbook bets are apart: each cell's `sportsbook` (stakes, refunds, the change of payouts, its GGR), never in the casino's figures.
         */
        get: operations["getGgrReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/reconciliation/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reconciliation: every round transaction of a day
         * @description Every bet, win and rollback of the caller's rounds in its key's mode recorded on a UTC `date`, or from `from` to `to` (at most 31 days), oldest first, with what it moved and, in seamless mode, where the call to your wallet stands. JSON pages (`totals` on the first), or with `Accept: text/csv` one CSV of the whole range, streamed (a header row, RFC 4180 quoting; a text cell starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'` so a spreadsheet does not run it).
         */
        get: operations["listReconciliationTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/statements/{month}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly statement
         * @description The month's GGR per provider and currency, your fee rate (a contract value staff set) and the amount due on each line, in the key's mode. Issued once the month is over (an hour after its last day) and you have a contract; before that, read live as `open`.
         */
        get: operations["getStatement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/free-rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A session's free rounds
         * @description The free-round grants the session's player can play in it now: the operator's, in the session's mode, currency and game (a grant is locked to the game its first round played), with rounds left, of a campaign started and not cancelled, not expired. Play one with `free_round_grant_id` on `POST /v3/provider/bets`.
         */
        get: operations["providerFreeRounds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/free-rounds/{grant_id}/payout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a lump-sum free-round grant
         * @description The one credit of a grant whose game pays free rounds in one sum (`lump_sum`), when its rounds are over (all used and settled, or no more can be played): paid as a `win` up to the campaign's `max_win`, in the session and wallet of the grant's last round (transfer: the operator's float; seamless: a `credit` call carrying `free_round: { grant_id, campaign_external_id }`), and recorded on that round. Applied once, forever: the same request again gets the first answer, another `transaction_id` for a paid grant is `422 free_round_already_paid`. No session token: sessions end before grants do.
         */
        post: operations["providerFreeRoundPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/sportsbook/bets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Place a sportsbook bet
         * @description Takes the stake (transfer mode: from the operator's float, `type bet`; a test session: its test player's balance) and records the bet, `open`, or `reserved` when `two_phase`. The player's restrictions, stake limits and loss limits apply as to any bet. The session token is needed here only: nothing after the placement needs the session. Seamless mode: the stake is a `debit` to the operator's wallet, made at once and never retried; the bet stands once the wallet takes it (refused: nothing is placed, `insufficient_funds` or `wallet_refused`; no answer in time: `wallet_failed`, the bet is discarded and the debit rolled back at the operator). A bet settles in the wallet mode it was placed in.
         */
        post: operations["providerSportsbookPlace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/sportsbook/bets/{bet_id}/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Commit a reserved bet
         * @description A `reserved` bet becomes `open`. Of a bet open or past it, nothing changes.
         */
        post: operations["providerSportsbookCommit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/sportsbook/bets/{bet_id}/discard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discard a reserved bet
         * @description A `reserved` bet's stake is given back (`adjustment`) and the bet is `discarded`. Of a bet nobody has seen, the discard is remembered and answered OK, and that bet is refused when it comes; of a discarded bet, nothing moves.
         */
        post: operations["providerSportsbookDiscard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/sportsbook/bets/{bet_id}/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Settle or resettle a bet
         * @description `payout` is the total the bet now pays. Only the difference from the payout in force moves, in one transaction: a rise is a `win`, a fall a clawback (`adjustment`); the same payout again moves nothing. A clawback the balance cannot cover is owed: taken from the player's next payouts first, and reported (`sportsbook.clawback.pending`). Seamless mode: a rise is a `credit` and a fall a `debit` to the operator's wallet, naming the bet, sent until the wallet takes it (`wallet_pending` until then: the same call again gets its answer); a clawback the wallet refuses for funds is owed.
         */
        post: operations["providerSportsbookSettle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/sportsbook/bets/{bet_id}/unsettle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unsettle a bet
         * @description The bet is `open` again and what it paid is taken back (a clawback, owed where the balance cannot cover it).
         */
        post: operations["providerSportsbookUnsettle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/provider/sportsbook/bets/{bet_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a bet
         * @description A settled bet is final: it takes nothing more (what it owes is still taken from the player's next payouts). Of a closed bet, nothing changes.
         */
        post: operations["providerSportsbookClose"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sportsbook/bets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's sportsbook bets
         * @description Sportsbook bets of the caller's sessions in its key's mode, newest first, a page at a time, each with every settlement.
         */
        get: operations["listSportsbookBets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sportsbook/bets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a sportsbook bet
         * @description One of the caller's sportsbook bets with every settlement; anything else is `404`.
         */
        get: operations["getSportsbookBet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/sportsbook/fixtures/{fixture_id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Settle a demo sportsbook fixture
         * @description Gives the fixture its outcome (`fixture_settled` if it has one: resettle it). Test keys only: the demo sportsbook (`cgs-sandbox:sportsbook`, whose page places single and accumulator bets on fictional fixtures) plays its provider's part with the outcome you give. Each of your open or settled test bets of the demo sportsbook naming the fixture is then settled through the provider API's engine as its legs say (a leg wins when its pick is the outcome, is void with a void fixture, waits while its fixture has no outcome): any leg lost, the bet is `lost`; every leg decided, `won` at its stake times the odds of its won legs (every leg void: `void`, the stake back); otherwise it waits. Each change is a settlement or resettlement of the demo provider's, moving the money (a test player's balance, or calls to your test seamless wallet) and raising the `sportsbook.*` events a real provider's would.
         */
        post: operations["settleSandboxFixture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/sportsbook/fixtures/{fixture_id}/resettle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resettle a demo sportsbook fixture
         * @description Changes a settled fixture's outcome (`fixture_not_settled` if it has none), as a provider correcting a result does: its bets are resettled, against the player or for them. Test keys only: the demo sportsbook (`cgs-sandbox:sportsbook`, whose page places single and accumulator bets on fictional fixtures) plays its provider's part with the outcome you give. Each of your open or settled test bets of the demo sportsbook naming the fixture is then settled through the provider API's engine as its legs say (a leg wins when its pick is the outcome, is void with a void fixture, waits while its fixture has no outcome): any leg lost, the bet is `lost`; every leg decided, `won` at its stake times the odds of its won legs (every leg void: `void`, the stake back); otherwise it waits. Each change is a settlement or resettlement of the demo provider's, moving the money (a test player's balance, or calls to your test seamless wallet) and raising the `sportsbook.*` events a real provider's would.
         */
        post: operations["resettleSandboxFixture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/sandbox/sportsbook/fixtures/{fixture_id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void a demo sportsbook fixture
         * @description Voids the fixture (abandoned, settled or not): its legs count as void. No body. Test keys only: the demo sportsbook (`cgs-sandbox:sportsbook`, whose page places single and accumulator bets on fictional fixtures) plays its provider's part with the outcome you give. Each of your open or settled test bets of the demo sportsbook naming the fixture is then settled through the provider API's engine as its legs say (a leg wins when its pick is the outcome, is void with a void fixture, waits while its fixture has no outcome): any leg lost, the bet is `lost`; every leg decided, `won` at its stake times the odds of its won legs (every leg void: `void`, the stake back); otherwise it waits. Each change is a settlement or resettlement of the demo provider's, moving the money (a test player's balance, or calls to your test seamless wallet) and raising the `sportsbook.*` events a real provider's would.
         */
        post: operations["voidSandboxFixture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    event: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An event, sent to your webhook endpoint
         * @description Signed with Standard Webhooks. Answer any 2xx within 15 s; anything else is retried at about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, never before your `Retry-After`; `410 Gone` disables the endpoint.
         */
        post: operations["receiveEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    walletCall: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A seamless wallet call, sent to your wallet url
         * @description In seamless mode each balance request, bet (`debit`), win (`credit`) and rollback is a call to your wallet, signed as events are (`webhook-id` is the same on every retry of one call), with the provider's `transaction_id` and `round_id` prefixed with its slug (unique across providers): apply each once and answer a repeat as the first time. Answer within the timeout (3 s by default) with `{ "balance" }` as a decimal string (at most 64 KiB of an answer is read: a longer one is a failed call); refuse a debit with a 4xx and `{ "code", "balance" }` (`insufficient_funds`, ...). A debit is never retried: without an answer in time it is followed by a `rollback` naming it (`rolled_back_transaction_id`). Credits and rollbacks are retried until you answer 2xx; answer a rollback of a debit you never saw with 2xx, and refuse that debit if it arrives later. A sportsbook bet's money comes the same way, each call naming the bet (`bet_id`): its stake a `debit` (never retried; without an answer in time the bet is discarded and the debit rolled back), a payout's rise a `credit`, a fall (a clawback) a `debit` whose `transaction_id` is the settlement's, a discard a `rollback` of the stake's debit; all but the stake are retried until you answer 2xx. Refuse a clawback you cannot cover with `insufficient_funds`: the platform records it as owed and takes it from the player's next payouts (a payout's `credit` is less by what it takes).
         */
        post: operations["receiveWalletCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description `player_id`, `game_id` and `currency` are required; `country`, `jurisdiction`, `kyc_status` and `reality_check_minutes` optional; unknown fields are refused (`unknown_field`). */
        SessionRequest: {
            /** @description The operator's identifier of the player (an `OperatorId`: no white space at either end, no invisible characters). */
            player_id: components["schemas"]["OperatorId"];
            /** @description `<provider slug>:<game code>` of an active game of an active provider in the catalogue: the slug (lower-case letters, digits and `-`, at most 64), then the code (`[A-Za-z0-9._~-]`, at most 128). */
            game_id: components["schemas"]["GameId"];
            /** @description An active ISO 4217 currency code, in capitals, that the game plays in. */
            currency: components["schemas"]["CurrencyCode"];
            /** @description The player's country, ISO 3166-1 alpha-2 in capitals: a game restricted there, or a country the session's jurisdiction does not cover, is refused (`country_restricted`); required where the jurisdiction covers some countries only (`country_required`). */
            country?: components["schemas"]["CountryCode"];
            /**
             * @description The jurisdiction the session is played under (`GET /v3/jurisdictions`): required once you hold any licence (`jurisdiction_required`), and one you hold (`jurisdiction_not_held`); the game must be certified there (`game_not_certified`). Its rules go in the launch token.
             * @example GB
             */
            jurisdiction?: string;
            /**
             * @description The player's KYC status as you know it: a jurisdiction requiring verification refuses anything but `verified` (`403 kyc_required`). Stored, and in the launch token.
             * @example verified
             * @enum {string}
             */
            kyc_status?: "unverified" | "pending" | "verified" | "rejected";
            /**
             * @description The reality-check interval the game shows; by default the jurisdiction's.
             * @example 60
             */
            reality_check_minutes?: number;
        };
        GameSession: {
            /** Format: uuid */
            id: string;
            player_id: string;
            /** @description `<provider slug>:<game>`. */
            game_id: string;
            currency: string;
            /**
             * @description `created` when returned by `POST /v3/sessions`; `expired` when it was never launched and its launch window has closed.
             * @enum {string}
             */
            status: "created" | "active" | "closed" | "expired";
            /** @description `true` when made with a live key (`cgs_live_`), `false` with a test key (`cgs_test_`): each mode's sessions are seen only by keys of that mode. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description End of the launch window (15 minutes by default); also the launch token's `exp`.
             */
            expires_at: string;
            /**
             * Format: uri
             * @description Where the player starts the game; its `token` query parameter is a JWT (`iss`, `aud` = provider slug, `sub` = player, `jti` = session id, `game_id`, `currency`, `iat`, `exp`, and under a jurisdiction `jurisdiction`, its `rules`, `kyc_status` and `reality_check_minutes`) signed with the key the JWKS publishes: EdDSA by default, or ES256. Always present in a `201`; in `GET /v3/sessions/{id}` only while the session can still be launched (status `created`, before `expires_at`).
             */
            launch_url?: string;
            /** @description Only when the session was made under one. */
            jurisdiction?: string;
            /**
             * @description Only when the request said it.
             * @enum {string}
             */
            kyc_status?: "unverified" | "pending" | "verified" | "rejected";
            /** @description Only when set, by the request or the jurisdiction. */
            reality_check_minutes?: number;
        };
        /**
         * @description Stable machine-readable error code; `type` is `https://docs.cgs.example/problems/<code>`.
         * @enum {string}
         */
        ProblemCode: "malformed_json" | "validation_failed" | "invalid_idempotency_key" | "invalid_session_id" | "invalid_parameters" | "missing_api_key" | "invalid_api_key" | "not_found" | "method_not_allowed" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "reference_unavailable" | "internal_error" | "service_unavailable" | "outcome_unknown" | "invalid_provider_key" | "invalid_session_token" | "unknown_session" | "duplicate_transaction" | "insufficient_funds" | "session_expired" | "session_closed" | "test_player_unknown" | "unknown_round" | "round_closed" | "round_mismatch" | "unknown_transaction" | "transaction_rolled_back" | "bet_settled" | "invalid_rollback" | "rounds_open" | "amount_too_large" | "wallet_refused" | "wallet_pending" | "wallet_failed" | "wallet_unavailable" | "transaction_pending" | "kyc_required" | "player_restricted" | "stake_limit_exceeded" | "session_time_exceeded" | "exclusion_active" | "loss_limit_reached" | "live_key" | "not_seamless" | "operator_suspended" | "external_id_conflict" | "campaign_ended" | "campaign_cancelled" | "grant_completed" | "free_rounds_not_supported" | "mixed_providers" | "stake_not_allowed" | "free_rounds_limit_exceeded" | "invalid_validity" | "report_too_large" | "free_round_grant_unknown" | "free_round_wrong_player" | "free_round_wrong_game" | "free_round_stake_mismatch" | "free_rounds_exhausted" | "free_round_grant_expired" | "free_round_campaign_cancelled" | "free_round_campaign_scheduled" | "free_round_mismatch" | "free_round_already_paid" | "free_round_not_lump_sum" | "free_rounds_left" | "free_round_not_played" | "duplicate_bet" | "unknown_bet" | "not_sportsbook" | "bet_reserved" | "bet_not_reserved" | "bet_discarded" | "bet_not_settled" | "bet_closed" | "invalid_settlement" | "settlement_cancelled" | "fixture_settled" | "fixture_not_settled";
        /** @description One failing field: of the request body (`pointer`) or a query parameter (`parameter`). */
        FieldError: {
            /**
             * @description JSON Pointer (RFC 6901, URI fragment form) to the member; `#` for the whole body.
             * @example #/currency
             */
            pointer?: string;
            /**
             * @description The query parameter.
             * @example limit
             */
            parameter?: string;
            /** @enum {string} */
            code: "required" | "invalid_type" | "invalid_format" | "unknown_field" | "unknown_provider" | "provider_unavailable" | "unknown_currency" | "currency_unavailable" | "unknown_country" | "unknown_game" | "game_unavailable" | "currency_not_supported" | "country_restricted" | "country_required" | "jurisdiction_required" | "jurisdiction_not_held" | "game_not_certified" | "repeated" | "unknown_parameter" | "invalid_cursor" | "url_not_https" | "url_not_public" | "url_unresolvable" | "free_rounds_not_supported" | "mixed_providers" | "stake_not_allowed" | "rounds_above_limit" | "validity_above_limit" | "valid_until_not_after_valid_from" | "valid_until_passed" | "invalid_range";
            detail: string;
        } & (unknown | unknown);
        /** @description RFC 9457 problem details. Internal errors are logged, never returned: `detail` never carries database text. */
        Problem: {
            /** Format: uri */
            type: string;
            title: string;
            status: number;
            detail: string;
            code: components["schemas"]["ProblemCode"];
            /** @description Whether sending the same request again may succeed: true for `idempotency_key_in_use` (409), `service_unavailable` (503), `outcome_unknown` (503: only the same request again, under the same `Idempotency-Key` or `transaction_id`, never a new one), and on the provider API `transaction_pending` (409), `wallet_pending` and `wallet_unavailable` (502); false otherwise. */
            retryable: boolean;
            /** @description Every failing field (400 `validation_failed` and `invalid_parameters`, 422 `reference_unavailable`). */
            errors?: components["schemas"]["FieldError"][];
            /** @description `insufficient_funds`: the balance the bet could not be taken from; `wallet_refused`: the balance the operator's wallet gave with its refusal, if it gave one. */
            balance?: components["schemas"]["Amount"];
            /** @description With `balance`: the balance's currency. */
            currency?: string;
            /** @description `wallet_refused` only: the code the operator's seamless wallet refused the debit or stake with. */
            wallet_code?: string;
            /**
             * @description `invalid_settlement` only: the payout is above the bet's potential payout, or its result says otherwise (lost pays 0, won more than 0, void the stake).
             * @enum {string}
             */
            reason?: "payout_above_potential" | "result_payout_mismatch";
        };
        /** @description A launch-token public key; `kid` is the key's RFC 7638 thumbprint unless the operator of the service named it. */
        Jwk: components["schemas"]["Ed25519Jwk"] | components["schemas"]["P256Jwk"];
        /** @description An Ed25519 public key (RFC 8037), for EdDSA launch tokens. */
        Ed25519Jwk: {
            /** @constant */
            kty: "OKP";
            /** @constant */
            crv: "Ed25519";
            x: string;
            kid: string;
            /** @constant */
            alg: "EdDSA";
            /** @constant */
            use: "sig";
        };
        /** @description A P-256 public key, for ES256 launch tokens. */
        P256Jwk: {
            /** @constant */
            kty: "EC";
            /** @constant */
            crv: "P-256";
            x: string;
            y: string;
            kid: string;
            /** @constant */
            alg: "ES256";
            /** @constant */
            use: "sig";
        };
        Jwks: {
            keys: components["schemas"]["Jwk"][];
        };
        /**
         * Format: date-time
         * @description An instant in RFC 3339 with its offset (`Z` or `±hh:mm`, at most 14 hours), years 0001 to 9999, at most microseconds.
         * @example 2026-01-31T00:00:00Z
         */
        DateTime: string;
        Game: {
            /** @description `<provider slug>:<game code>`: what POST /v3/sessions takes. */
            game_id: string;
            /** @description The provider slug. */
            provider: string;
            code: string;
            name: string;
            /** @enum {string} */
            category: "slots" | "live_casino" | "table_games" | "game_show" | "crash" | "instant" | "scratch" | "bingo" | "jackpot" | "sportsbook";
            /**
             * @description Whether it can be launched now: the game's own status, or its provider's when that makes it unavailable. Lists show active games only, but for a sync (`updated_since`), which shows every change.
             * @enum {string}
             */
            status: "active" | "maintenance" | "inactive";
            /**
             * @description Return to player, percent, as a decimal string.
             * @example 96.50
             */
            rtp: string | null;
            /** @enum {string|null} */
            volatility: "low" | "medium" | "high" | "very_high" | null;
            features: ("free_spins" | "bonus_buy" | "jackpot" | "megaways" | "cluster_pays" | "multipliers" | "respins" | "autoplay" | "turbo_spin" | "free_bets")[];
            platforms: ("desktop" | "mobile")[];
            /** Format: uri */
            thumbnail_url: string | null;
            /** Format: date */
            released_on: string | null;
            /** @description Currencies the game plays in; empty: every active currency. */
            currencies: string[];
            /** @description ISO 3166-1 alpha-2 countries where it may not be offered. */
            restricted_countries: string[];
            /** @description Whether it has a play-for-fun mode. */
            demo: boolean;
            /** Format: date-time */
            updated_at: string;
            /** @description Where it is certified (`GET /v3/jurisdictions`): a session under another jurisdiction is refused (`game_not_certified`). */
            jurisdictions: string[];
        };
        Provider: {
            slug: string;
            name: string;
            category: string | null;
            /** Format: uri */
            logo_url: string | null;
            /** @description Its active games. */
            games_count: number;
        };
        Currency: {
            code: string;
            name: string;
            symbol: string;
        };
        GameList: {
            data: components["schemas"]["Game"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        ProviderList: {
            data: components["schemas"]["Provider"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        CurrencyList: {
            data: components["schemas"]["Currency"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        Wallet: {
            currency: string;
            /**
             * @description A decimal string with four places, exactly as stored (numeric(20,4)); never a JSON number.
             * @example 12345678901.2345
             */
            balance: string;
            is_primary: boolean;
            /** Format: date-time */
            updated_at: string;
        };
        Transaction: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "deposit" | "withdraw" | "adjustment" | "bet" | "win" | "fee";
            currency: string;
            /**
             * @description The signed effect on the balance: deposit and win positive; withdraw, bet and fee negative; adjustment either.
             * @example -2.5000
             */
            amount: string;
            balance_after: string | null;
            /** @description The id the movement was recorded under, applied once. */
            reference: string | null;
            note: string | null;
            /** Format: date-time */
            created_at: string;
        };
        WalletList: {
            data: components["schemas"]["Wallet"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        TransactionList: {
            data: components["schemas"]["Transaction"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        SessionList: {
            data: components["schemas"]["GameSession"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        /**
         * @description A sum of money as a decimal string: at most 16 digits before the point and 4 after, never a JSON number.
         * @example 10.50
         */
        Amount: string;
        /**
         * @description An `Amount` above 0.
         * @example 10.50
         */
        PositiveAmount: string;
        /**
         * @description The provider's id of a transaction: visible ASCII, at most 128 characters. It applies once, forever: the same request again gets the first answer; another request with it is `409 duplicate_transaction`.
         * @example tx-1001
         */
        ProviderTransactionId: string;
        /**
         * @description The provider's id of a round, unique per provider.
         * @example round-77
         */
        ProviderRoundId: string;
        /** @description The launch token `POST /v3/sessions` issued (the `token` of its `launch_url`). Accepted after its `exp` for wins and rollbacks; a bet needs a session that is launched (or within its launch window) and not closed. */
        SessionToken: string;
        ProviderBetRequest: {
            session_token: components["schemas"]["SessionToken"];
            transaction_id: components["schemas"]["ProviderTransactionId"];
            round_id: components["schemas"]["ProviderRoundId"];
            amount: components["schemas"]["PositiveAmount"];
            /**
             * @description Closes the round with this bet (nothing more enters it).
             * @default false
             */
            round_closed: boolean;
            /**
             * Format: uuid
             * @description A free round: the free-round grant (GET /v3/provider/free-rounds) that funds it. A free bet's `amount` is the grant's `bet_amount`; it uses one of the grant's rounds and moves no money. On a win, the grant of the round (a free round's wins are credited against its grant whether it is named or not).
             */
            free_round_grant_id?: string;
        };
        ProviderWinRequest: {
            session_token: components["schemas"]["SessionToken"];
            transaction_id: components["schemas"]["ProviderTransactionId"];
            round_id: components["schemas"]["ProviderRoundId"];
            amount: components["schemas"]["Amount"];
            /**
             * @description Closes the round; a win of 0 closes a lost round.
             * @default false
             */
            round_closed: boolean;
            /** @description The bet this win settles; without it, the win settles every bet of the round. A settled bet can no longer be rolled back. */
            bet_transaction_id?: components["schemas"]["ProviderTransactionId"];
            /**
             * Format: uuid
             * @description A free round: the free-round grant (GET /v3/provider/free-rounds) that funds it. A free bet's `amount` is the grant's `bet_amount`; it uses one of the grant's rounds and moves no money. On a win, the grant of the round (a free round's wins are credited against its grant whether it is named or not).
             */
            free_round_grant_id?: string;
        };
        ProviderRollbackRequest: {
            session_token: components["schemas"]["SessionToken"];
            transaction_id: components["schemas"]["ProviderTransactionId"];
            /** @description The bet to give back. Unknown, it is remembered and answered OK, and that bet is refused when it comes; already rolled back, nothing moves. */
            rolled_back_transaction_id: components["schemas"]["ProviderTransactionId"];
        };
        /** @description The answer to a bet, win or rollback, repeated byte for byte to the same request. */
        ProviderAnswer: {
            transaction_id: string;
            /** @description null for the rollback of a transaction nobody had seen. */
            round_id: string | null;
            /** @description The balance after it, in the session's currency (transfer mode: the operator's float). */
            balance: components["schemas"]["Amount"];
            currency: string;
        };
        ProviderBalance: {
            balance: components["schemas"]["Amount"];
            currency: string;
        };
        Round: {
            /** Format: uuid */
            id: string;
            /** @description The provider's id of the round. */
            round_id: string;
            provider: string;
            game_id: string;
            /** Format: uuid */
            session_id: string;
            player_id: string;
            currency: string;
            /**
             * @description The wallet the round's money moves in, fixed by its first bet: its wins, rollbacks and cancellations settle there even if the wallet mode changes later.
             * @enum {string}
             */
            wallet_mode: "transfer" | "seamless";
            /**
             * @description `cancelled`: every bet was rolled back and nothing won.
             * @enum {string}
             */
            status: "open" | "closed" | "cancelled";
            /** @description Bets, net of rollbacks. */
            total_bet: components["schemas"]["Amount"];
            total_win: components["schemas"]["Amount"];
            /**
             * Format: uuid
             * @description A free round: the free-round grant that funded it (`GET /v3/free-rounds/grants/{id}`, which names its campaign). Null for a round of cash. A free round's `total_bet` is 0 (its bets cost the player nothing) and its `total_win` is what it paid.
             */
            free_round_grant_id: string | null;
            livemode: boolean;
            /** Format: date-time */
            opened_at: string;
            /** Format: date-time */
            closed_at: string | null;
        };
        RoundTransaction: {
            transaction_id: string;
            /** @enum {string} */
            type: "bet" | "win" | "rollback";
            amount: components["schemas"]["Amount"];
            /** @description The bet a win named or a rollback reversed. */
            related_transaction_id: string | null;
            /** @description A bet a rollback reversed. */
            rolled_back: boolean;
            /**
             * @description A win past a win limit: `held` (recorded, not paid, waiting for staff), `released` (paid) or `rejected` (never paid). Null for every other transaction.
             * @enum {string|null}
             */
            review: "held" | "released" | "rejected" | null;
            /**
             * Format: uuid
             * @description The free-round grant that funded it; null for cash. A free bet's `amount` is the stake it stood for and moved no money; a free win's `amount` is what the provider reported, of which the grant paid at most what its `max_win` left.
             */
            free_round_grant_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        RoundDetail: {
            /** Format: uuid */
            id: string;
            /** @description The provider's id of the round. */
            round_id: string;
            provider: string;
            game_id: string;
            /** Format: uuid */
            session_id: string;
            player_id: string;
            currency: string;
            /**
             * @description The wallet the round's money moves in, fixed by its first bet: its wins, rollbacks and cancellations settle there even if the wallet mode changes later.
             * @enum {string}
             */
            wallet_mode: "transfer" | "seamless";
            /**
             * @description `cancelled`: every bet was rolled back and nothing won.
             * @enum {string}
             */
            status: "open" | "closed" | "cancelled";
            /** @description Bets, net of rollbacks. */
            total_bet: components["schemas"]["Amount"];
            total_win: components["schemas"]["Amount"];
            /**
             * Format: uuid
             * @description A free round: the free-round grant that funded it (`GET /v3/free-rounds/grants/{id}`, which names its campaign). Null for a round of cash. A free round's `total_bet` is 0 (its bets cost the player nothing) and its `total_win` is what it paid.
             */
            free_round_grant_id: string | null;
            livemode: boolean;
            /** Format: date-time */
            opened_at: string;
            /** Format: date-time */
            closed_at: string | null;
            /** @description In the order they came. */
            transactions: components["schemas"]["RoundTransaction"][];
        };
        RoundList: {
            data: components["schemas"]["Round"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        WalletSettings: {
            /**
             * @description `transfer`: your float here funds play. `seamless`: every bet, win and rollback is a signed call to your wallet at `url`.
             * @enum {string}
             */
            mode: "transfer" | "seamless";
            /** Format: uri */
            url: string | null;
            /** @description The first characters of the secret signing calls to your wallet. */
            secret_prefix: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description null until first set.
             */
            updated_at: string | null;
            /** @description Transfer mode: per currency, the balance under which a movement of your float sends `wallet.balance_low` (once per crossing). */
            low_balance_alerts: {
                [key: string]: components["schemas"]["Amount"];
            };
        };
        WalletSettingsRequest: {
            /** @enum {string} */
            mode: "transfer" | "seamless";
            /** @description Your wallet's endpoint; required the first time `mode` is `seamless`. */
            url?: components["schemas"]["CallbackUrl"];
            /**
             * @description Makes a new signing secret; the previous one keeps signing for 24 hours.
             * @default false
             */
            rotate_secret: boolean;
            /** @description Transfer mode: per currency, the balance under which a movement of your float sends `wallet.balance_low` (once per crossing). Replaces the alerts set before; left out, they stay. */
            low_balance_alerts?: {
                [key: string]: components["schemas"]["Amount"];
            };
        };
        WalletSettingsUpdated: {
            /**
             * @description `transfer`: your float here funds play. `seamless`: every bet, win and rollback is a signed call to your wallet at `url`.
             * @enum {string}
             */
            mode: "transfer" | "seamless";
            /** Format: uri */
            url: string | null;
            /** @description The first characters of the secret signing calls to your wallet. */
            secret_prefix: string | null;
            livemode: boolean;
            /**
             * Format: date-time
             * @description null until first set.
             */
            updated_at: string | null;
            /** @description Only when a secret was made (the first switch to seamless, or a rotation): shown this once. */
            secret?: string;
            /** @description Transfer mode: per currency, the balance under which a movement of your float sends `wallet.balance_low` (once per crossing). */
            low_balance_alerts: {
                [key: string]: components["schemas"]["Amount"];
            };
        };
        /**
         * @description What happened: each written in the same transaction as the change it reports.
         * @enum {string}
         */
        EventType: "session.created" | "session.closed" | "round.closed" | "round.cancelled" | "round.stuck" | "round.win_held" | "round.win_released" | "round.win_rejected" | "transaction.created" | "wallet.balance_low" | "api_key.created" | "api_key.revoked" | "endpoint.ping" | "endpoint.disabled" | "support_ticket.updated" | "wallet_call.failed" | "player.restrictions_updated" | "player.refused" | "free_rounds.grant.created" | "free_rounds.grant.started" | "free_rounds.grant.completed" | "free_rounds.grant.expired" | "free_rounds.grant.cancelled" | "free_rounds.campaign.ended" | "free_rounds.campaign.cancelled" | "sportsbook.bet.placed" | "sportsbook.bet.settled" | "sportsbook.bet.resettled" | "sportsbook.bet.unsettled" | "sportsbook.bet.closed" | "sportsbook.bet.discarded" | "sportsbook.clawback.pending";
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            /** Format: uri */
            url: string;
            /** @description The types sent to it; empty: all. */
            event_types: components["schemas"]["EventType"][];
            enabled: boolean;
            description: string | null;
            /** @description The first characters of its signing secret. */
            secret_prefix: string;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookEndpointCreated: {
            /** Format: uuid */
            id: string;
            /** Format: uri */
            url: string;
            /** @description The types sent to it; empty: all. */
            event_types: components["schemas"]["EventType"][];
            enabled: boolean;
            description: string | null;
            /** @description The first characters of its signing secret. */
            secret_prefix: string;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The signing secret (Standard Webhooks): shown in this answer only. */
            secret: string;
        };
        WebhookEndpointRequest: {
            url: components["schemas"]["CallbackUrl"];
            /** @default [] */
            event_types: components["schemas"]["EventType"][];
            description?: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        /** @description What happened, as the webhook delivery carries it. */
        Event: {
            /**
             * Format: uuid
             * @description Also the deliveries' `webhook-id`.
             */
            id: string;
            type: components["schemas"]["EventType"];
            /** Format: date-time */
            created_at: string;
            livemode: boolean;
            /** @description The object as the API shows it (a round as `GET /v3/rounds/{id}`, a session as `GET /v3/sessions/{id}` without its launch URL). */
            data: Record<string, never>;
        };
        EventList: {
            data: components["schemas"]["Event"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        WebhookAttempt: {
            attempt: number;
            /** Format: date-time */
            attempted_at: string;
            /** @description null when no answer came. */
            status_code: number | null;
            duration_ms: number;
            error: string | null;
        };
        WebhookDelivery: {
            /** Format: uuid */
            endpoint_id: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            delivered_at: string | null;
            attempt_log: components["schemas"]["WebhookAttempt"][];
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
        };
        WebhookEndpointUpdate: {
            url?: components["schemas"]["CallbackUrl"];
            event_types?: components["schemas"]["EventType"][];
            /** @description A disabled endpoint gets no new deliveries. */
            enabled?: boolean;
            description?: string | null;
        };
        Jurisdiction: {
            /** @description `MT`, `GB`, `SE`, `ON`, `CW`, ... */
            code: string;
            name: string;
            regulator: string;
            /** @description Sessions need `kyc_status` `verified`. */
            kyc_required: boolean;
            /** @description Where its licence lets you take players (ISO 3166-1 alpha-2); empty: anywhere not blocked. */
            countries: string[];
            blocked_countries: string[];
            rules: components["schemas"]["JurisdictionRules"];
            updated_at: components["schemas"]["DateTime"];
            /** @description Whether you hold its licence: only those can name it in a session. */
            licensed: boolean;
        };
        /** @description What the game must honour; the launch token carries them. */
        JurisdictionRules: {
            autoplay_allowed: boolean;
            /** @description Turbo or quick spin. */
            turbo_allowed: boolean;
            bonus_buy_allowed: boolean;
            /** @description The shortest a round may take. */
            min_round_ms: number | null;
            show_net_position: boolean;
            show_session_time: boolean;
            max_stake: components["schemas"]["Amount"] | null;
            max_stake_currency: string | null;
            /** @description The default reality-check interval. */
            reality_check_minutes: number | null;
        };
        JurisdictionList: {
            data: components["schemas"]["Jurisdiction"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        /** @description The whole set: what is left out is lifted (where it may be). */
        PlayerRestrictionsInput: {
            /** @description Excluded from play until then. Cannot be lifted or brought forward while it runs (`409`). */
            self_excluded_until?: components["schemas"]["DateTime"] | null;
            /** @description Excluded until the operator lifts it... which it cannot through this API (`409`). */
            self_excluded_indefinitely?: boolean;
            /** @description A short break: no play until then; cannot be shortened while it runs (`409`). */
            cool_off_until?: components["schemas"]["DateTime"] | null;
            /** @description Net losses (bets less wins and bets given back) per UTC day, week (from Monday) and month, per currency, counted from when a limit exists: the bet that would cross one is refused (`loss_limit_reached`). */
            loss_limits?: {
                [key: string]: {
                    day?: components["schemas"]["Amount"] | null;
                    week?: components["schemas"]["Amount"] | null;
                    month?: components["schemas"]["Amount"] | null;
                };
            };
            /** @description The largest bet per currency (`stake_limit_exceeded`). */
            stake_limits?: {
                [key: string]: components["schemas"]["Amount"];
            };
            /** @description No bet after this long since the session was created (`session_time_exceeded`). */
            session_time_limit_minutes?: number | null;
        };
        PlayerRestrictions: {
            player_id: string;
            /** @description Excluded from play until then. Cannot be lifted or brought forward while it runs (`409`). */
            self_excluded_until: components["schemas"]["DateTime"] | null;
            self_excluded_indefinitely: boolean;
            /** @description A short break: no play until then; cannot be shortened while it runs (`409`). */
            cool_off_until: components["schemas"]["DateTime"] | null;
            /** @description Net losses (bets less wins and bets given back) per UTC day, week (from Monday) and month, per currency, counted from when a limit exists: the bet that would cross one is refused (`loss_limit_reached`). */
            loss_limits: {
                [key: string]: {
                    day?: components["schemas"]["Amount"] | null;
                    week?: components["schemas"]["Amount"] | null;
                    month?: components["schemas"]["Amount"] | null;
                };
            };
            /** @description The largest bet per currency (`stake_limit_exceeded`). */
            stake_limits: {
                [key: string]: components["schemas"]["Amount"];
            };
            /** @description No bet after this long since the session was created (`session_time_exceeded`). */
            session_time_limit_minutes: number | null;
            livemode: boolean;
            /** @description null until first set. */
            updated_at: components["schemas"]["DateTime"] | null;
        };
        SandboxPlayerRequest: {
            player_id: components["schemas"]["OperatorId"];
            currency: components["schemas"]["CurrencyCode"];
            balance: components["schemas"]["Amount"];
            /**
             * @description `insufficient_funds`: every bet is refused. `failing_wallet`: every bet is answered `502 wallet_failed` at once, as when a seamless wallet fails; `slow_wallet`: the same after the wallet timeout, as when it does not answer in time. Nothing is taken; wins and rollbacks settle. Transfer mode only: in seamless mode your test wallet decides.
             * @default normal
             * @enum {string}
             */
            behaviour: "normal" | "insufficient_funds" | "failing_wallet" | "slow_wallet";
        };
        SandboxPlayer: {
            player_id: string;
            currency: string;
            balance: components["schemas"]["Amount"];
            /** @enum {string} */
            behaviour: "normal" | "insufficient_funds" | "failing_wallet" | "slow_wallet";
            /** @constant */
            livemode: false;
            created_at: components["schemas"]["DateTime"];
        };
        /** @description A test player: its balance and behaviour in each currency it has one in, in currency code order. */
        SandboxPlayerBalances: {
            data: components["schemas"]["SandboxPlayer"][];
        };
        WalletCheckRequest: {
            /** @description A player of yours in your test wallet, with at least 1.00 to bet. */
            player_id: components["schemas"]["OperatorId"];
            currency: components["schemas"]["CurrencyCode"];
        };
        /** @description What a sandbox reset removed. */
        SandboxReset: {
            /** @constant */
            livemode: false;
            removed: {
                /** @description Test players removed (each with its balance in every currency). */
                players: number;
                /** @description Test players' restrictions removed. */
                restrictions: number;
                /** @description Test webhook endpoints removed, with their pending deliveries. */
                webhook_endpoints: number;
                /** @description 1 when test wallet settings were set (they are forgotten: transfer mode). */
                wallet_settings: number;
            };
            /** @description Test sessions closed (no more bets). */
            sessions_closed: number;
            /** @description Test rounds left open, now cancelled (each told as round.cancelled): their test balances are gone, so a late win or rollback is answered round_closed. */
            rounds_cancelled: number;
            /** @description Test free-round campaigns still running or to come, now cancelled (each told as free_rounds.campaign.cancelled): they grant nothing more. */
            free_round_campaigns_cancelled: number;
            /** @description Test free-round grants not finished (pending or in play, not past their expiry), now cancelled (each told as free_rounds.grant.cancelled); their open rounds are among rounds_cancelled. */
            free_round_grants_cancelled: number;
            /** @description Test sportsbook bets reserved or open, now `discarded` (each told as sportsbook.bet.discarded, `reason` `sandbox_reset`), moving nothing: their stakes went with the test players. A late call of the provider's on one is answered `bet_discarded`. */
            sportsbook_bets_discarded: number;
            /** @description Test sportsbook bets settled, now `closed` (each told as sportsbook.bet.closed), moving nothing: they take no resettlement. What any test bet owed is forgiven (its history's `sandbox_reset` line). */
            sportsbook_bets_closed: number;
            /** @description The demo sportsbook's fixtures whose outcome you had set, now cleared: each can be settled again. */
            sportsbook_fixtures_cleared: number;
            /**
             * @description The test wallet's mode now.
             * @constant
             */
            wallet_mode: "transfer";
        };
        WalletCheckReport: {
            /** @description Every scenario passed. */
            passed: boolean;
            scenarios: {
                /** @enum {string} */
                scenario: "balance" | "debit" | "duplicate debit" | "credit" | "rollback of an unknown transaction" | "debit after its rollback" | "signature tampering";
                passed: boolean;
                /** @description What the wallet answered, and what was expected. */
                detail: string;
            }[];
        };
        /** @description A campaign: `external_id` is yours and makes the call safe to repeat (the same body again answers the campaign, another body is `409 external_id_conflict`). Unknown fields are refused. */
        FreeRoundCampaignRequest: {
            /** @description Your id of the campaign: one campaign per id in each mode. */
            external_id: components["schemas"]["OperatorId"];
            /** @example December welcome spins */
            name: string;
            /** @description Games of one provider whose catalogue entry supports free rounds; a grant is locked to the first one its player plays. */
            game_ids: components["schemas"]["GameId"][];
            /** @description An active currency every game plays in and has free-round stakes for. */
            currency: components["schemas"]["CurrencyCode"];
            /** @description The stake of each free round: one of the stakes each game allows in `currency`. */
            bet_amount: components["schemas"]["PositiveAmount"];
            /**
             * @description Rounds each player gets: at most the games' provider maximum.
             * @example 20
             */
            rounds: number;
            /** @description When rounds may start; now by default. */
            valid_from?: components["schemas"]["DateTime"];
            /** @description When unplayed rounds expire: after `valid_from`, in the future, and within the provider's limit after `valid_from` (at most 30 days). */
            valid_until: components["schemas"]["DateTime"];
            /** @description The most one grant pays in total; what its rounds win above it is recorded, not paid. */
            max_win?: components["schemas"]["PositiveAmount"];
            /** @description Players to grant at once (repeats count once); more with `POST .../players`. */
            player_ids?: components["schemas"]["OperatorId"][];
        };
        FreeRoundCampaign: {
            /** Format: uuid */
            id: string;
            external_id: string;
            name: string;
            game_ids: string[];
            currency: string;
            bet_amount: components["schemas"]["Amount"];
            rounds: number;
            /** Format: date-time */
            valid_from: string;
            /** Format: date-time */
            valid_until: string;
            max_win: components["schemas"]["Amount"] | null;
            /**
             * @description `scheduled` before `valid_from`, `active` until `valid_until`, `ended` after it (the clock decides, whatever was recorded), `cancelled` once cancelled.
             * @enum {string}
             */
            status: "scheduled" | "active" | "ended" | "cancelled";
            livemode: boolean;
            /** @description Its grants, counted by status. */
            grants: {
                pending: number;
                in_progress: number;
                completed: number;
                expired: number;
                cancelled: number;
            };
            rounds_played: number;
            /** @description What its grants won and were paid. */
            total_paid: components["schemas"]["Amount"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            cancelled_at: string | null;
        };
        FreeRoundCampaignList: {
            data: components["schemas"]["FreeRoundCampaign"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        FreeRoundPlayersRequest: {
            /** @description Up to 1,000 players a call; a player already granted is left as is. */
            player_ids: components["schemas"]["OperatorId"][];
        };
        FreeRoundPlayersAdded: {
            /** Format: uuid */
            campaign_id: string;
            /** @description Grants made by this call. */
            created: number;
            /** @description Players who had a grant of this campaign already. */
            unchanged: number;
        };
        FreeRoundGrant: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            campaign_id: string;
            campaign_external_id: string;
            player_id: string;
            /** @description The game it is locked to: null until its first round. */
            game_id: string | null;
            currency: string;
            bet_amount: components["schemas"]["Amount"];
            rounds_total: number;
            rounds_used: number;
            /** @description Rounds that can still be played: none once it is over. */
            rounds_left: number;
            total_win: components["schemas"]["Amount"];
            /**
             * @description `pending` until its first round, `in_progress` while rounds are left, `completed` when all are played, `expired` once `expires_at` passes unfinished (the clock decides: an expired grant takes no free bet), `cancelled` when its campaign was cancelled before it started.
             * @enum {string}
             */
            status: "pending" | "in_progress" | "completed" | "expired" | "cancelled";
            /** Format: date-time */
            expires_at: string;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        FreeRoundGrantList: {
            data: components["schemas"]["FreeRoundGrant"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        /**
         * Format: date
         * @description A UTC calendar day, `YYYY-MM-DD`.
         * @example 2026-11-24
         */
        Day: string;
        /**
         * @description A sum of money as a decimal string with four decimals, negative when money went the other way; never a JSON number.
         * @example -12.5000
         */
        SignedAmount: string;
        /** @description One cell of a GGR report: the keys of the report's `group_by` (and always `currency`), then the figures. Each movement counts in the UTC day it happened: a rollback or staff release the day after a bet counts in its own day. */
        GgrCell: {
            /** @description With `group_by=day`. */
            day?: components["schemas"]["Day"];
            /** @description With `group_by=provider`: the provider's slug. */
            provider?: string;
            /** @description With `group_by=game`: `<provider slug>:<game code>`. */
            game_id?: string;
            /** @description With `group_by=player`. */
            player_id?: string;
            /** @description Every cell is of one currency: money is never summed across currencies. */
            currency: string;
            /** @description Turnover: every bet that moved money (in seamless mode, those your wallet accepted), before rollbacks. */
            bets: components["schemas"]["SignedAmount"];
            /** @description Wins paid. A win held for review counts in the day staff release it; a rejected one never. */
            wins: components["schemas"]["SignedAmount"];
            /** @description What free rounds paid (the bonus cost), apart from `wins`: each free win as paid (capped by the campaign's max_win), a lump-sum game's payout. Free bets are not in `bets`. Not in `ggr`. */
            free_round_wins: components["schemas"]["SignedAmount"];
            /** @description Bets the provider rolled back. */
            rolled_back: components["schemas"]["SignedAmount"];
            /** @description Bets given back when staff cancelled a round. */
            voided: components["schemas"]["SignedAmount"];
            /** @description Gross gaming revenue: `bets - rolled_back - voided - wins`. */
            ggr: components["schemas"]["SignedAmount"];
            /** @description Casino rounds opened (by their first bet); sportsbook bets are counted in `sportsbook.bets`. */
            rounds: number;
            /** @description Distinct players who placed a casino bet that moved money. */
            players: number;
            /** @description The sportsbook's figures, apart from the casino's (which never include them); null when they are all zero. */
            sportsbook: components["schemas"]["GgrSportsbook"] | null;
        };
        /** @description A cell's sportsbook bets, each movement in the UTC day it happened: a bet in the day it was placed, a discard's refund and each settlement's change of the payout in the day they came. */
        GgrSportsbook: {
            /** @description Bets placed that moved money (in seamless mode, those whose stake your wallet took). */
            bets: number;
            /** @description What those bets staked. */
            stakes: components["schemas"]["SignedAmount"];
            /** @description Stakes given back by a discard (the provider's, or a reservation that expired). */
            refunded: components["schemas"]["SignedAmount"];
            /** @description The change of the bets' payouts in force from settlements, resettlements and unsettlements (negative when payouts fell). A clawback counts when the payout falls, whether it was taken at once or is owed. */
            payouts: components["schemas"]["SignedAmount"];
            /** @description `stakes - refunded - payouts`. */
            ggr: components["schemas"]["SignedAmount"];
        };
        GgrReport: {
            /** @constant */
            object: "ggr_report";
            /** @description The key's mode: test and live play are reported apart. */
            livemode: boolean;
            /** @description `from` as asked. */
            first_day: components["schemas"]["Day"];
            /** @description `to` as asked. */
            last_day: components["schemas"]["Day"];
            group_by: ("day" | "provider" | "game" | "currency" | "player")[];
            /** @description The cells, ordered by day, provider, game, currency and player. */
            data: components["schemas"]["GgrCell"][];
            /** @description One cell per currency over the whole report (its `players` counted once each). */
            totals: components["schemas"]["GgrCell"][];
        };
        /** @description Seamless mode: the call to your wallet that carried the transaction, where it stands. */
        WalletCallState: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            action: "debit" | "credit" | "rollback";
            /** @enum {string} */
            status: "pending" | "accepted" | "failed";
            attempts: number;
            /** @description Your balance after it, as you answered. */
            balance: components["schemas"]["SignedAmount"] | null;
            /** Format: date-time */
            completed_at: string | null;
        };
        ReconciliationLine: {
            /**
             * Format: uuid
             * @description Our id of the transaction.
             */
            id: string;
            /** Format: date-time */
            created_at: string;
            provider: string;
            /** @description The provider's id (in seamless calls to your wallet, prefixed with the provider's slug). */
            transaction_id: string;
            /**
             * @description The casino's `bet`, `win` and `rollback`, or the sportsbook's calls: a bet placed, committed (two-phase), discarded (its stake given back), settled (or resettled: the payout now in force), unsettled, closed.
             * @enum {string}
             */
            type: "bet" | "win" | "rollback" | "sportsbook_place" | "sportsbook_commit" | "sportsbook_discard" | "sportsbook_settle" | "sportsbook_unsettle" | "sportsbook_close";
            /** @description The provider's id of the round; null for a rollback of a bet never seen. */
            round_id: string | null;
            /**
             * Format: uuid
             * @description The round's id in `GET /v3/rounds/{id}`.
             */
            round: string | null;
            /** Format: uuid */
            session_id: string | null;
            player_id: string | null;
            game_id: string | null;
            currency: string | null;
            /** @description As the provider reported it (a rollback: the bet it gave back, `0.0000` if none; a sportsbook placement its stake, a discard the stake given back, a settlement the bet's payout in force, absolute; a commit or close `0.0000`). */
            amount: components["schemas"]["Amount"];
            /** @description What it moved in the round's wallet, signed: a bet negative, a win or rollback positive; `0.0000` while nothing moved (a held or rejected win, a seamless call not accepted). A sportsbook settlement moves the change of the payout in force (a clawback negative), less what it withheld for the player's owed clawbacks; a clawback your wallet refused for funds is owed and moved nothing. */
            moved: components["schemas"]["SignedAmount"];
            /** @description The bet a win names or a rollback reverses. */
            related_transaction_id: string | null;
            /** @enum {string} */
            wallet_mode: "transfer" | "seamless";
            /**
             * Format: uuid
             * @description Transfer mode, live: the float's movement (GET /v3/transactions).
             */
            ledger_transaction_id: string | null;
            /**
             * @description A win past a win limit: where its review stands.
             * @enum {string|null}
             */
            review: "held" | "released" | "rejected" | null;
            wallet_call: components["schemas"]["WalletCallState"] | null;
        };
        ReconciliationTotal: {
            currency: string | null;
            transactions: number;
            bets: components["schemas"]["SignedAmount"];
            wins: components["schemas"]["SignedAmount"];
            rollbacks: components["schemas"]["SignedAmount"];
            /** @description The net of every line's `moved` (the casino's and the sportsbook's): what your wallet should show for the range. */
            moved: components["schemas"]["SignedAmount"];
        };
        ReconciliationPage: {
            data: components["schemas"]["ReconciliationLine"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
            /** @description The first page (no `cursor`): each currency's totals over the whole range, to check before matching lines; null on later pages. */
            totals: components["schemas"]["ReconciliationTotal"][] | null;
        };
        StatementLine: {
            provider: string;
            currency: string;
            bets: components["schemas"]["SignedAmount"];
            wins: components["schemas"]["SignedAmount"];
            free_round_wins: components["schemas"]["SignedAmount"];
            rolled_back: components["schemas"]["SignedAmount"];
            voided: components["schemas"]["SignedAmount"];
            /** @description `bets - rolled_back - voided - wins`, as GET /v3/reports/ggr counts them. */
            ggr: components["schemas"]["SignedAmount"];
            /** @description `ggr` times `fee_rate`, rounded to four places; `0.0000` when `ggr` is not positive; null without a contract (and for test play). */
            amount_due: components["schemas"]["SignedAmount"] | null;
        };
        Statement: {
            /** @constant */
            object: "statement";
            month: string;
            /** @description A test key's statement is of its test play: never issued, nothing due. */
            livemode: boolean;
            /**
             * @description `issued`: the month is over and rolled up and you have a contract; its lines were written once and never change. `open`: read live, at the rate now.
             * @enum {string}
             */
            status: "open" | "issued";
            /** @description Your contract's share of positive GGR (`0.150000` is 15 %); null until staff set it. */
            fee_rate: string | null;
            /** Format: date-time */
            issued_at: string | null;
            /** @description One per provider and currency. */
            lines: components["schemas"]["StatementLine"][];
            /** @description Per currency: never converted. */
            totals: {
                currency: string;
                ggr: components["schemas"]["SignedAmount"];
                amount_due: components["schemas"]["SignedAmount"] | null;
            }[];
        };
        ProviderFreeRoundPayoutRequest: {
            transaction_id: components["schemas"]["ProviderTransactionId"];
            /** @description What the grant won in all: paid up to the campaign's `max_win`, the rest recorded as capped. */
            amount: components["schemas"]["Amount"];
        };
        /** @description The free-round grants the session's player can play in this session now, soonest to expire first. */
        ProviderFreeRounds: {
            data: components["schemas"]["FreeRoundGrant"][];
        };
        /**
         * @description The provider's id of the bet, unique per provider (the bet's round id): visible ASCII, at most 128 characters.
         * @example bet-5001
         */
        SportsbookBetId: string;
        /**
         * @description Decimal odds as a decimal string: at least 1, at most 6 decimals.
         * @example 2.50
         */
        Odds: string;
        /**
         * @description `lost` pays 0, `won` more than 0, `void` the stake back; the others any payout up to the potential payout.
         * @enum {string}
         */
        SportsbookResult: "won" | "lost" | "void" | "cashout" | "half_won" | "half_lost";
        /**
         * @description `reserved`: placed two-phase and not yet committed (its stake taken); `open`: awaiting a settlement; `settled`: a settlement in force (it may be resettled or unsettled); `closed`: final; `discarded`: its stake given back.
         * @enum {string}
         */
        SportsbookBetStatus: "reserved" | "open" | "settled" | "closed" | "discarded";
        SportsbookPlaceRequest: {
            session_token: components["schemas"]["SessionToken"];
            bet_id: components["schemas"]["SportsbookBetId"];
            transaction_id: components["schemas"]["ProviderTransactionId"];
            /** @description The stake. */
            amount: components["schemas"]["PositiveAmount"];
            odds: components["schemas"]["Odds"];
            /** @description What the bet pays if it wins: at least the stake; no settlement may pay more. */
            potential_payout: components["schemas"]["PositiveAmount"];
            /** @description What was bet on, a leg each (event, market, pick, odds...) as the provider describes it: at most 8 KiB of JSON, kept and shown as it came. */
            selections: Record<string, never>[];
            /**
             * @description Reserve the stake: the bet is `reserved` until `commit` opens it or `discard` gives the stake back (reserved bets left too long are discarded by the platform).
             * @default false
             */
            two_phase: boolean;
        };
        SportsbookCallRequest: {
            transaction_id: components["schemas"]["ProviderTransactionId"];
        };
        SportsbookSettlementRequest: {
            transaction_id: components["schemas"]["ProviderTransactionId"];
            result: components["schemas"]["SportsbookResult"];
            /** @description The total the bet now pays (absolute, not a difference): only the difference from the payout in force moves. */
            payout: components["schemas"]["Amount"];
        };
        SportsbookUnsettleRequest: {
            transaction_id: components["schemas"]["ProviderTransactionId"];
            /** @description The settlement this undoes. Unknown, it is remembered and answered OK, and that settlement is refused when it comes; replaced by a later settlement, nothing changes. Without it, the settlement in force is undone. */
            settlement_transaction_id?: components["schemas"]["ProviderTransactionId"];
        };
        /** @description The answer to a sportsbook call: the bet after it, repeated byte for byte to the same request. Its members are null for a discard or unsettle of a bet nobody has seen (remembered). */
        SportsbookAnswer: {
            transaction_id: string;
            bet_id: string;
            status: components["schemas"]["SportsbookBetStatus"] | null;
            result: components["schemas"]["SportsbookResult"] | null;
            /** @description The payout in force. */
            payout: components["schemas"]["Amount"] | null;
            /** @description What the bet has paid so far: its payout plus what it still owes. */
            paid: components["schemas"]["Amount"] | null;
            /** @description Clawbacks no balance could cover yet, taken from the player's next payouts. */
            owed: components["schemas"]["Amount"] | null;
            /** @description The balance after it: transfer mode, the operator's float in the bet's currency (a test session: its test player's); seamless mode, the balance the operator's wallet answered the call's money with, or null for a call that moved no money. */
            balance: components["schemas"]["Amount"] | null;
            currency: string | null;
        };
        /** @description One change of a bet: a `settlement`, an `unsettlement`, a `recovery` (a clawback it owed, taken from the payout of another bet of the player's, `from_bet_id`), a `discard`, (seamless mode) a `clawback_refused`: a clawback the operator's wallet refused for funds, now owed (`moved` gives back what the settlement's line took), or a `sandbox_reset` (test mode): the bet ended by `POST /v3/sandbox/reset`, moving nothing (`discarded` if it was reserved or open, `closed` if settled), what it owed `forgiven`; in seamless mode its `moved` gives back what the bet's payout and clawback calls the wallet never took (still due, or failed) had counted, so `paid` and the `payout` after it are what the wallet took. */
        SportsbookSettlement: {
            /** @enum {string} */
            type: "settlement" | "unsettlement" | "recovery" | "discard" | "clawback_refused" | "sandbox_reset";
            /** @description The provider's call (for a discard by the platform, `cgs-discard-<id>`; for a sandbox reset, `cgs-reset-<id>`, no call). */
            transaction_id: string;
            result?: components["schemas"]["SportsbookResult"] | null;
            /** @description The payout in force after it. */
            payout?: components["schemas"]["Amount"];
            /** @description The money it moved for this bet: positive to the player, negative taken back (a `clawback_refused` or `sandbox_reset` line corrects what earlier lines counted, so the lines add up to what moved). */
            moved: components["schemas"]["SignedAmount"];
            /** @description Of this payout, what went to the player's owed clawbacks of other bets. */
            withheld?: components["schemas"]["Amount"];
            /** @description What the bet owes after it. */
            owed?: components["schemas"]["Amount"];
            from_bet_id?: string;
            /** @description A `sandbox_reset`'s: what the bet owed, written off with its removed test player (`paid` is less by it, so `paid - owed = payout` still holds). */
            forgiven?: components["schemas"]["Amount"];
            /**
             * @description A discard's: by the provider (`discarded`), by the platform for a reservation left too long (`expired`), or (seamless mode) a stake the operator's wallet did not answer in time (`wallet_failed`).
             * @enum {string}
             */
            reason?: "discarded" | "expired" | "wallet_failed";
            /** Format: date-time */
            created_at: string;
        };
        SportsbookBet: {
            /**
             * Format: uuid
             * @description The bet's id here (its round's).
             */
            id: string;
            /** @description The provider's id of the bet. */
            bet_id: string;
            provider: string;
            game_id: string;
            /**
             * Format: uuid
             * @description The session it was placed in.
             */
            session_id: string;
            player_id: string;
            currency: string;
            /**
             * @description The wallet it was placed in, and settles in.
             * @enum {string}
             */
            wallet_mode: "transfer" | "seamless";
            status: components["schemas"]["SportsbookBetStatus"];
            stake: components["schemas"]["Amount"];
            odds: components["schemas"]["Odds"];
            potential_payout: components["schemas"]["Amount"];
            /** @description As the provider sent them. */
            selections: Record<string, never>[];
            result: components["schemas"]["SportsbookResult"] | null;
            /** @description The payout in force (0 while not settled). */
            payout: components["schemas"]["Amount"];
            /** @description What it has paid so far: always `payout` plus `owed`. */
            paid: components["schemas"]["Amount"];
            /** @description Clawbacks no balance could cover yet, taken from the player's next payouts. */
            owed: components["schemas"]["Amount"];
            livemode: boolean;
            /** Format: date-time */
            placed_at: string;
            /**
             * Format: date-time
             * @description Its last settlement.
             */
            settled_at: string | null;
            /** Format: date-time */
            closed_at: string | null;
            settlements: components["schemas"]["SportsbookSettlement"][];
        };
        SportsbookBetList: {
            data: components["schemas"]["SportsbookBet"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
            has_more: boolean;
        };
        /**
         * @description An identifier you choose (a `player_id`, a campaign's `external_id`), compared exactly as sent: 1 to 128 characters, no white space at either end, and none of the characters that print as nothing or reorder text: control (Cc), format (Cf: zero-width spaces and joiners, bidirectional marks, embeddings, overrides and isolates, the byte-order mark, soft hyphen), surrogate (Cs), private-use (Co), line and paragraph separators (Zl, Zp), and every other character Unicode calls default-ignorable (variation selectors, tag characters, Hangul fillers, the combining grapheme joiner). Anything else, spaces inside included, is kept as it is: `Player-1` and `player-1` are two players. Refused: `400 invalid_format` (`invalid_parameters` in a path or query).
         * @example player-1
         */
        OperatorId: string;
        /**
         * @description An ISO 4217 code in capitals. Malformed: `400 invalid_format`. Well-formed but not a currency of the service (`GET /v3/currencies` lists those it offers): `422 reference_unavailable`, field code `unknown_currency`, everywhere; where play needs it (sessions, test players, wallet checks, campaigns), one the service has but not active is `currency_unavailable`.
         * @example EUR
         */
        CurrencyCode: string;
        /**
         * @description An ISO 3166-1 alpha-2 code in capitals, one assigned to a country (249 today; user-assigned codes such as `XK` and `ZZ` are not). Malformed: `400 invalid_format`. Well-formed but not assigned: `422 reference_unavailable`, field code `unknown_country`, everywhere.
         * @example MT
         */
        CountryCode: string;
        /**
         * @description A URL the platform calls (a webhook endpoint, a seamless wallet): at most 2,048 characters, no white space; https, resolving to public addresses only (`400`, field codes `url_not_https`, `url_not_public`, `url_unresolvable`).
         * @example https://operator.example/cgs
         */
        CallbackUrl: string;
        /**
         * @description `<provider slug>:<game code>`: the slug (lower-case letters, digits and `-`, at most 64), then the code (`[A-Za-z0-9._~-]`, at most 128).
         * @example pragmatic-play:vs20olympgate
         */
        GameId: string;
        /** @description A fixture of the demo sportsbook (`cgs-sandbox:sportsbook`), as its bets' selections name it (`fixture_id`). */
        SandboxFixtureId: string;
        SandboxFixtureOutcomeRequest: {
            /**
             * @description How the fixture ended: a leg wins when its `pick` is the outcome.
             * @enum {string}
             */
            outcome: "home" | "draw" | "away";
        };
        /** @description The fixture's outcome in your sandbox, and the bets it changed, as the bets API shows them after. */
        SandboxFixtureSettled: {
            fixture_id: components["schemas"]["SandboxFixtureId"];
            /** @enum {string} */
            outcome: "home" | "draw" | "away" | "void";
            /** @description Each bet settled or resettled by it (a bet waiting on another fixture, or already paying what it now should, is not changed). */
            bets: components["schemas"]["SportsbookBet"][];
        };
    };
    responses: {
        /** @description Created, or replayed for a retry with the same `Idempotency-Key` and body. */
        SessionCreated: {
            headers: {
                /**
                 * @description The session's path (`/functions/v1/v3/sessions/{id}` through the Supabase gateway).
                 * @example /functions/v1/v3/sessions/0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90
                 */
                Location: string;
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                /**
                 * @description Present, `true`, when this is the replay of an earlier response for the same `Idempotency-Key`.
                 * @example true
                 */
                "Idempotent-Replayed"?: "true";
                [name: string]: unknown;
            };
            content: {
                "application/json": WithRequired<components["schemas"]["GameSession"], "launch_url">;
            };
        };
        /** @description The body is not JSON (`malformed_json`), has invalid fields (`validation_failed`, all listed in `errors`), or the `Idempotency-Key` is not 1 to 255 visible ASCII characters (`invalid_idempotency_key`). */
        BadRequest: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 400;
                    /** @enum {unknown} */
                    code?: "malformed_json" | "validation_failed" | "invalid_idempotency_key";
                };
            };
        };
        /** @description The id is not a UUID (`invalid_session_id`). Without a valid API key the answer is `401` instead. */
        InvalidSessionId: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 400;
                    /** @constant */
                    code?: "invalid_session_id";
                };
            };
        };
        /** @description No API key (`missing_api_key`), or one that is unknown, revoked or suspended (`invalid_api_key`; all three look the same). The key is checked before anything else is reported: without a valid key, no 400, 413 or 415 reveals the request rules. */
        Unauthorized: {
            headers: {
                /**
                 * @description The Bearer challenge.
                 * @example Bearer realm="cgs", error="invalid_token"
                 */
                "WWW-Authenticate": string;
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 401;
                    /** @enum {unknown} */
                    code?: "missing_api_key" | "invalid_api_key";
                };
            };
        };
        /** @description Nothing of the caller's at this path: an unknown id, another client's session (which looks the same as none), or a game that is not active. */
        NotFound: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 404;
                    /** @constant */
                    code?: "not_found";
                };
            };
        };
        /** @description The path exists, but not with this method: `Allow` names those that do. */
        MethodNotAllowed: {
            headers: {
                /**
                 * @description The methods this path accepts.
                 * @example POST
                 */
                Allow: string;
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 405;
                    /** @constant */
                    code?: "method_not_allowed";
                };
            };
        };
        /** @description A request with this `Idempotency-Key` is still running. Retry after `Retry-After` seconds with the same key and body. */
        IdempotencyKeyInUse: {
            headers: {
                /**
                 * @description Seconds to wait before retrying.
                 * @example 1
                 */
                "Retry-After": number;
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 409;
                    /** @constant */
                    code?: "idempotency_key_in_use";
                };
            };
        };
        /** @description The body is over 16 KiB (counted while reading, whatever `Content-Length` says). */
        PayloadTooLarge: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 413;
                    /** @constant */
                    code?: "payload_too_large";
                };
            };
        };
        /** @description The body is not `application/json` (UTF-8). */
        UnsupportedMediaType: {
            headers: {
                /**
                 * @description The media type to send.
                 * @example application/json
                 */
                "Accept-Post": "application/json";
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 415;
                    /** @constant */
                    code?: "unsupported_media_type";
                };
            };
        };
        /** @description The `Idempotency-Key` was used with another body (`idempotency_key_reused`), or the game, currency, country or jurisdiction cannot be played (`reference_unavailable`, each reason listed in `errors`: `unknown_provider`, `provider_unavailable`, `unknown_game`, `game_unavailable`, `unknown_currency`, `currency_unavailable`, `currency_not_supported`, `unknown_country`, `country_restricted`, `country_required`, `jurisdiction_required`, `jurisdiction_not_held`, `game_not_certified`). */
        Unprocessable: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 422;
                    /** @enum {unknown} */
                    code?: "idempotency_key_reused" | "reference_unavailable";
                };
            };
        };
        /** @description Something failed on the service's side; it was logged, and no internal detail is returned. */
        InternalError: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 500;
                    /** @constant */
                    code?: "internal_error";
                };
            };
        };
        /** @description The database could not be reached or was too slow; a read writes nothing. */
        ServiceUnavailable: {
            headers: {
                /**
                 * @description Seconds to wait before retrying.
                 * @example 5
                 */
                "Retry-After": number;
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 503;
                    /** @constant */
                    code?: "service_unavailable";
                };
            };
        };
        /** @description The database could not be reached, was too slow, or lost its answer. `service_unavailable`: the request was not applied (nothing was written). `outcome_unknown`: its commit reached the database and no answer came back, so it may have been applied; send it again unchanged, with the same `Idempotency-Key` or `transaction_id` (never a new one), and the answer is the first one's. */
        WriteUnavailable: {
            headers: {
                /**
                 * @description Seconds to wait before retrying.
                 * @example 5
                 */
                "Retry-After": number;
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 503;
                    /** @enum {unknown} */
                    code?: "service_unavailable" | "outcome_unknown";
                };
            };
        };
        /** @description Nothing changed since the ETag sent in If-None-Match; no body. */
        NotModified: {
            headers: {
                /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                ETag: string;
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description A query parameter is unknown, repeated or invalid (`invalid_parameters`, each listed in `errors`). */
        InvalidParameters: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 400;
                    /** @enum {unknown} */
                    code?: "invalid_parameters";
                };
            };
        };
        /** @description No key (`missing_api_key`), or one that is not an active provider key (`invalid_provider_key`). Checked before anything else. */
        ProviderUnauthorized: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "missing_api_key" | "invalid_provider_key";
                    /** @constant */
                    status?: 401;
                };
            };
        };
        /** @description The session token was not issued by this service. Or, for a bet, the player is self-excluded or cooling off (`player_restricted`), or the operator's account is suspended or closed (`operator_suspended`): wins and rollbacks still settle. */
        InvalidSessionToken: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "invalid_session_token" | "player_restricted" | "operator_suspended";
                    /** @constant */
                    status?: 403;
                };
            };
        };
        /** @description The token's session is not one of this provider's. */
        UnknownSession: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "unknown_session";
                    /** @constant */
                    status?: 404;
                };
            };
        };
        /** @description This `transaction_id` was used by another request (`duplicate_transaction`), or the bet it names still waits for the operator's seamless wallet (`transaction_pending`, retryable: send it again shortly). */
        DuplicateTransaction: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "duplicate_transaction" | "transaction_pending";
                    /** @constant */
                    status?: 409;
                };
            };
        };
        /** @description Refused, and nothing was written: `insufficient_funds` (with `balance` and `currency`), `session_expired`, `session_closed`, `test_player_unknown` (a test session's player has no test balance in its currency: the session was made, and its bets play once `POST /v3/sandbox/players` gives it one), `wallet_refused` (the operator's seamless wallet refused the debit: its `wallet_code`), `unknown_round`, `round_closed`, `round_mismatch`, `unknown_transaction`, `transaction_rolled_back`, `bet_settled`, `invalid_rollback`, `stake_limit_exceeded` (the player's stake limit, or the jurisdiction's maximum stake), `session_time_exceeded`, `loss_limit_reached` (the bet would take the player past a loss limit), `amount_too_large` (a balance or round total past 16 digits). Free rounds: `free_round_grant_unknown`, `free_round_wrong_player`, `free_round_wrong_game` (another game or currency, or the grant is locked to the game its first round played), `free_round_stake_mismatch` (a free bet is the grant's `bet_amount`), `free_rounds_exhausted`, `free_round_grant_expired`, `free_round_campaign_cancelled` (the campaign was cancelled, or the operator removed the player from it), `free_round_campaign_scheduled`, `free_round_mismatch` (a free round takes its own grant's free bets only, a cash round none); a payout: `free_round_not_lump_sum`, `free_round_already_paid` (under another `transaction_id`), `free_rounds_left` (the grant can still be played, or a round is in play), `free_round_not_played`. */
        ProviderRefused: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "insufficient_funds" | "session_expired" | "session_closed" | "test_player_unknown" | "unknown_round" | "round_closed" | "round_mismatch" | "unknown_transaction" | "transaction_rolled_back" | "bet_settled" | "invalid_rollback" | "wallet_refused" | "amount_too_large" | "stake_limit_exceeded" | "session_time_exceeded" | "loss_limit_reached" | "free_round_grant_unknown" | "free_round_wrong_player" | "free_round_wrong_game" | "free_round_stake_mismatch" | "free_rounds_exhausted" | "free_round_grant_expired" | "free_round_campaign_cancelled" | "free_round_campaign_scheduled" | "free_round_mismatch" | "free_round_already_paid" | "free_round_not_lump_sum" | "free_rounds_left" | "free_round_not_played";
                    /** @constant */
                    status?: 422;
                };
            };
        };
        /** @description Applied (or, for a repeat, the first answer again). */
        ProviderAnswered: {
            headers: {
                /** @description `true` when this is the first answer to the same request, replayed. */
                "Idempotent-Replayed"?: "true";
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ProviderAnswer"];
            };
        };
        /** @description The mode cannot change while a round of yours in this mode is open. */
        RoundsOpen: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 409;
                    /** @constant */
                    code?: "rounds_open";
                };
            };
        };
        /** @description Seamless mode: the operator's wallet did not take the call. `wallet_pending` (retryable): a win or rollback (or a sportsbook payout, clawback or discard) is recorded and the platform keeps sending it to the operator; send the same call again for its answer. `wallet_failed`: the debit had no answer in time, so the bet is rolled back, or the sportsbook bet discarded (at the operator too); it stays refused. `wallet_unavailable` (retryable): a balance request went unanswered. */
        WalletUnanswered: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "wallet_pending" | "wallet_failed" | "wallet_unavailable";
                    /** @constant */
                    status?: 502;
                };
            };
        };
        /** @description The player may not play: self-excluded or cooling off (`player_restricted`), or not KYC-verified where the session's jurisdiction requires it (`kyc_required`). Nothing was written. */
        PlayerNotAllowed: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 403;
                    /** @enum {unknown} */
                    code?: "player_restricted" | "kyc_required";
                };
            };
        };
        /** @description A live player's self-exclusion or cool-off that is running would end sooner: refused, nothing changed (test keys may lift their players'). */
        ExclusionActive: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    code?: "exclusion_active";
                    /** @constant */
                    status?: 409;
                };
            };
        };
        /** @description A live key: the sandbox takes test keys (`cgs_test_`) only. */
        LiveKey: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 403;
                    /** @constant */
                    code?: "live_key";
                };
            };
        };
        /** @description Your test mode is transfer: set a seamless wallet with a test key first. */
        NotSeamless: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 409;
                    /** @constant */
                    code?: "not_seamless";
                };
            };
        };
        /** @description The campaign cannot be made as asked, each reason in `errors`: a game or currency that cannot be used (`reference_unavailable`: `unknown_game`, `game_unavailable`, `currency_not_supported`, `unknown_currency`, `currency_unavailable`), a game without free rounds (`free_rounds_not_supported`), games of several providers (`mixed_providers`), a stake a game does not allow in the currency (`stake_not_allowed`, the allowed ones in `detail`), rounds or validity beyond the provider's limits (`free_rounds_limit_exceeded`: `rounds_above_limit`, `validity_above_limit`), or a window that is over or empty (`invalid_validity`). Nothing was written. */
        FreeRoundsRefused: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 422;
                    /** @enum {unknown} */
                    code?: "reference_unavailable" | "free_rounds_not_supported" | "mixed_providers" | "stake_not_allowed" | "free_rounds_limit_exceeded" | "invalid_validity";
                };
            };
        };
        /** @description `external_id_conflict`: this `external_id` names a campaign made with another body. `campaign_ended`: the campaign is over (past `valid_until`): it cannot be cancelled or granted. `campaign_cancelled`: it was cancelled and gives no new grants. */
        CampaignConflict: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 409;
                    /** @enum {unknown} */
                    code?: "external_id_conflict" | "campaign_ended" | "campaign_cancelled";
                };
            };
        };
        /** @description The player's grant is over: `campaign_ended`, the campaign is past `valid_until` (its unfinished grants expired); `grant_completed`, every round of it was played and paid. */
        GrantOver: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 409;
                    /** @enum {unknown} */
                    code?: "campaign_ended" | "grant_completed";
                };
            };
        };
        /** @description The report would have more than 10,000 cells (`report_too_large`): narrow the days, the grouping or the filters. */
        ReportTooLarge: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 422;
                    /** @enum {unknown} */
                    code?: "report_too_large";
                };
            };
        };
        /** @description Applied (or, for a repeat, the first answer again). */
        SportsbookAnswered: {
            headers: {
                /** @description `true` when this is the first answer to the same request, replayed. */
                "Idempotent-Replayed"?: "true";
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["SportsbookAnswer"];
            };
        };
        /** @description This `transaction_id` was used by another request (`duplicate_transaction`), or this `bet_id` by another bet (`duplicate_bet`); or (seamless mode, retryable) the bet's stake still waits for the operator's wallet (`transaction_pending`): send the call again shortly. */
        SportsbookConflict: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "duplicate_transaction" | "duplicate_bet" | "transaction_pending";
                    /** @constant */
                    status?: 409;
                };
            };
        };
        /** @description Refused, and nothing was written: `insufficient_funds` (with `balance` and `currency`; seamless mode: the operator's wallet refused the stake for funds), `wallet_refused` (seamless mode: the operator's wallet refused the stake otherwise, `wallet_code`), `not_sportsbook` (the session's game is not a sportsbook), `session_expired`, `session_closed`, `test_player_unknown`, `stake_limit_exceeded`, `session_time_exceeded`, `loss_limit_reached`, `amount_too_large`, `unknown_bet` (no bet of this provider's with this id: send it again once the bet is placed), `unknown_transaction` (the settlement named is another bet's), `bet_reserved` (commit it first), `bet_not_reserved` (only a reserved bet is discarded), `bet_discarded`, `bet_not_settled`, `bet_closed`, `invalid_settlement` (`reason`: `payout_above_potential` or `result_payout_mismatch`), `settlement_cancelled` (an unsettle named this settlement before it came). */
        SportsbookRefused: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "insufficient_funds" | "not_sportsbook" | "session_expired" | "session_closed" | "test_player_unknown" | "stake_limit_exceeded" | "session_time_exceeded" | "loss_limit_reached" | "amount_too_large" | "unknown_bet" | "unknown_transaction" | "bet_reserved" | "bet_not_reserved" | "bet_discarded" | "bet_not_settled" | "bet_closed" | "invalid_settlement" | "settlement_cancelled" | "wallet_refused";
                    /** @constant */
                    status?: 422;
                };
            };
        };
        /** @description A well-formed currency or country that the service does not know (`reference_unavailable`, each listed in `errors` with its pointer or parameter: `unknown_currency`, `currency_unavailable` where play needs an active currency, `unknown_country`); nothing was written. */
        ReferenceUnknown: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @constant */
                    status?: 422;
                    /** @constant */
                    code?: "reference_unavailable";
                };
            };
        };
        /** @description `fixture_settled`: the fixture has an outcome already (resettle it); `fixture_not_settled`: it has none yet (settle it first). */
        FixtureConflict: {
            headers: {
                /**
                 * @description Never cached.
                 * @example no-store
                 */
                "Cache-Control": "no-store";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"] & {
                    /** @enum {unknown} */
                    code?: "fixture_settled" | "fixture_not_settled";
                    /** @constant */
                    status?: 409;
                };
            };
        };
    };
    parameters: {
        /**
         * @description Makes retries safe (Stripe's semantics, per client, kept 24 hours): the same key with the same body replays the first `201`; with another body it is `422 idempotency_key_reused`; while the first request is still running, `409 idempotency_key_in_use`. Only successes are remembered.
         * @example order-123
         */
        IdempotencyKey: string;
        /**
         * @description The session's id, as `POST /v3/sessions` returned it.
         * @example 0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90
         */
        SessionId: string;
        /**
         * @description Page size, 1 to 100.
         * @example 50
         */
        Limit: number;
        /**
         * @description The previous page's `next_cursor`, as it came: opaque.
         * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
         */
        Cursor: string;
        /** @description `<provider slug>:<game code>`. */
        GameId: components["schemas"]["GameId"];
        /**
         * @description Your identifier of the player, as in sessions.
         * @example player-1
         */
        PlayerId: components["schemas"]["OperatorId"];
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSessions: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only this player.
                 * @example player-1
                 */
                player_id?: components["schemas"]["OperatorId"];
                /**
                 * @description Only sessions in this status (`expired`: created, and past its launch window).
                 * @example created
                 */
                status?: "created" | "active" | "closed" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes retries safe (Stripe's semantics, per client, kept 24 hours): the same key with the same body replays the first `201`; with another body it is `422 idempotency_key_reused`; while the first request is still running, `409 idempotency_key_in_use`. Only successes are remembered.
                 * @example order-123
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionRequest"];
            };
        };
        responses: {
            201: components["responses"]["SessionCreated"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["PlayerNotAllowed"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The session's id, as `POST /v3/sessions` returned it.
                 * @example 0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GameSession"];
                };
            };
            400: components["responses"]["InvalidSessionId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listGames: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only this provider (slug).
                 * @example pragmatic-play
                 */
                provider?: string;
                /**
                 * @description Only this category.
                 * @example slots
                 */
                category?: "slots" | "live_casino" | "table_games" | "game_show" | "crash" | "instant" | "scratch" | "bingo" | "jackpot" | "sportsbook";
                /**
                 * @description Only games that play in this currency.
                 * @example EUR
                 */
                currency?: components["schemas"]["CurrencyCode"];
                /**
                 * @description Only games that may be offered in this country (ISO 3166-1 alpha-2).
                 * @example MT
                 */
                country?: components["schemas"]["CountryCode"];
                /**
                 * @description Only games certified in this jurisdiction.
                 * @example GB
                 */
                jurisdiction?: string;
                /**
                 * @description Only games changed at or after this instant (RFC 3339, with its offset), whatever their status now.
                 * @example 2026-11-01T00:00:00Z
                 */
                updated_since?: components["schemas"]["DateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /** @description Revalidate with If-None-Match. */
                    "Cache-Control": "private, no-cache";
                    /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GameList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["ReferenceUnknown"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGame: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `<provider slug>:<game code>`. */
                game_id: components["parameters"]["GameId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The game. */
            200: {
                headers: {
                    /** @description Revalidate with If-None-Match. */
                    "Cache-Control": "private, no-cache";
                    /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Game"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listProviders: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /** @description Revalidate with If-None-Match. */
                    "Cache-Control": "private, no-cache";
                    /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCurrencies: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /** @description Revalidate with If-None-Match. */
                    "Cache-Control": "private, no-cache";
                    /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrencyList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWallets: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only this currency.
                 * @example EUR
                 */
                currency?: components["schemas"]["CurrencyCode"];
                /**
                 * @description Only this type.
                 * @example bet
                 */
                type?: "deposit" | "withdraw" | "adjustment" | "bet" | "win" | "fee";
                /**
                 * @description Only movements at or after this instant (RFC 3339, with its offset).
                 * @example 2026-11-01T00:00:00Z
                 */
                created_after?: components["schemas"]["DateTime"];
                /**
                 * @description Only movements before this instant (RFC 3339, with its offset).
                 * @example 2026-12-01T00:00:00Z
                 */
                created_before?: components["schemas"]["DateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["ReferenceUnknown"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public keys. */
            200: {
                headers: {
                    /**
                     * @description How long the key set may be cached.
                     * @example public, max-age=300
                     */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Jwks"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getOpenApiDescription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of a copy you hold: `304` when it is still current.
                 * @example "3f1c0a9e5b7d2c4e6f8a0b1c2d3e4f50"
                 */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    /**
                     * @description How long the document may be cached.
                     * @example public, max-age=300
                     */
                    "Cache-Control": string;
                    /**
                     * @description Identifies this version of the document (send it back as `If-None-Match`).
                     * @example "3f1c0a9e5b7d2c4e6f8a0b1c2d3e4f50"
                     */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            [key: string]: unknown;
                        };
                        paths: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The copy named by `If-None-Match` is current; no body. */
            304: {
                headers: {
                    /**
                     * @description The document's current ETag.
                     * @example "3f1c0a9e5b7d2c4e6f8a0b1c2d3e4f50"
                     */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    providerBalance: {
        parameters: {
            query: {
                /**
                 * @description The session's launch token.
                 * @example eyJhbGciOiJFZERTQSIsImtpZCI6IlFiM3QiLCJ0eXAiOiJKV1QifQ.eyJqdGkiOiIwYjZiN2E4ZS0zYzFmLTRkMmEtOWU1Ny01ZjdjMWQyYTRiOTAifQ.c2lnbmF0dXJl
                 */
                session_token: components["schemas"]["SessionToken"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderBalance"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["ProviderUnauthorized"];
            403: components["responses"]["InvalidSessionToken"];
            404: components["responses"]["UnknownSession"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["ProviderRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    providerBet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderBetRequest"];
            };
        };
        responses: {
            200: components["responses"]["ProviderAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            403: components["responses"]["InvalidSessionToken"];
            404: components["responses"]["UnknownSession"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["DuplicateTransaction"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ProviderRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerWin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderWinRequest"];
            };
        };
        responses: {
            200: components["responses"]["ProviderAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            403: components["responses"]["InvalidSessionToken"];
            404: components["responses"]["UnknownSession"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["DuplicateTransaction"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ProviderRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerRollback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderRollbackRequest"];
            };
        };
        responses: {
            200: components["responses"]["ProviderAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            403: components["responses"]["InvalidSessionToken"];
            404: components["responses"]["UnknownSession"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["DuplicateTransaction"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ProviderRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listRounds: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only rounds in this status.
                 * @example open
                 */
                status?: "open" | "closed" | "cancelled";
                /**
                 * @description Only this player's.
                 * @example player-1
                 */
                player_id?: components["schemas"]["OperatorId"];
                /**
                 * @description Only this session's.
                 * @example 0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90
                 */
                session_id?: string;
                /**
                 * @description Only rounds opened before this instant: with `status=open`, the rounds left open too long (stuck).
                 * @example 2026-11-24T00:00:00Z
                 */
                opened_before?: components["schemas"]["DateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoundList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRound: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The round's `id` (not the provider's `round_id`).
                 * @example 5d0c7f3e-2a41-4c8e-9b7a-1f2e3d4c5b6a
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The round. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoundDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWalletSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletSettings"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putWalletSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletSettingsRequest"];
            };
        };
        responses: {
            /** @description The settings, and the secret when one was made. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletSettingsUpdated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["RoundsOpen"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The endpoint, with its secret. */
            201: {
                headers: {
                    /**
                     * @description The endpoint's path (`/functions/v1/v3/webhook-endpoints/{id}` through the Supabase gateway).
                     * @example /functions/v1/v3/webhook-endpoints/7a1c2e3d-4b5f-4a6e-8c7d-9e0f1a2b3c4d
                     */
                    Location: string;
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The endpoint's id.
                 * @example 7a1c2e3d-4b5f-4a6e-8c7d-9e0f1a2b3c4d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The endpoint's id.
                 * @example 7a1c2e3d-4b5f-4a6e-8c7d-9e0f1a2b3c4d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint removed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The endpoint's id.
                 * @example 7a1c2e3d-4b5f-4a6e-8c7d-9e0f1a2b3c4d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointUpdate"];
            };
        };
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only this type.
                 * @example round.closed
                 */
                type?: components["schemas"]["EventType"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id (the deliveries' `webhook-id`).
                 * @example 3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEventDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id.
                 * @example 3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id.
                 * @example 3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries, due now. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The endpoint's id.
                 * @example 7a1c2e3d-4b5f-4a6e-8c7d-9e0f1a2b3c4d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint and its new secret. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointCreated"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The endpoint's id.
                 * @example 7a1c2e3d-4b5f-4a6e-8c7d-9e0f1a2b3c4d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ping, queued. */
            202: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listJurisdictions: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /** @description Revalidate with If-None-Match. */
                    "Cache-Control": "private, no-cache";
                    /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JurisdictionList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getJurisdiction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example GB */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The jurisdiction. */
            200: {
                headers: {
                    /** @description Revalidate with If-None-Match. */
                    "Cache-Control": "private, no-cache";
                    /** @description A hash of the body: send it back as If-None-Match to get 304 while nothing changed. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Jurisdiction"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlayerRestrictions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Your identifier of the player, as in sessions.
                 * @example player-1
                 */
                player_id: components["parameters"]["PlayerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The restrictions. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerRestrictions"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putPlayerRestrictions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Your identifier of the player, as in sessions.
                 * @example player-1
                 */
                player_id: components["parameters"]["PlayerId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlayerRestrictionsInput"];
            };
        };
        responses: {
            /** @description The restrictions, as now in force. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerRestrictions"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["ExclusionActive"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ReferenceUnknown"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    closeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The session's id, as `POST /v3/sessions` returned it.
                 * @example 0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session, closed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GameSession"];
                };
            };
            400: components["responses"]["InvalidSessionId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    createSandboxPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxPlayerRequest"];
            };
        };
        responses: {
            /** @description The test player. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxPlayer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ReferenceUnknown"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    getSandboxPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Your identifier of the player, as in sessions.
                 * @example player-1
                 */
                player_id: components["parameters"]["PlayerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test player, a row per currency. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxPlayerBalances"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resetSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was removed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxReset"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    checkSandboxWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletCheckRequest"];
            };
        };
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletCheckReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["NotSeamless"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ReferenceUnknown"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listFreeRoundCampaigns: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only campaigns in this status (as the clock makes it).
                 * @example active
                 */
                status?: "scheduled" | "active" | "ended" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundCampaignList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createFreeRoundCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FreeRoundCampaignRequest"];
            };
        };
        responses: {
            /** @description The campaign this `external_id` made with the same body, as it is now. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundCampaign"];
                };
            };
            /** @description The campaign, made. */
            201: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundCampaign"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["CampaignConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["FreeRoundsRefused"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    getFreeRoundCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The campaign's id.
                 * @example 4f3e2d1c-0b9a-4877-8665-544332211000
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundCampaign"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelFreeRoundCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The campaign's id.
                 * @example 4f3e2d1c-0b9a-4877-8665-544332211000
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, cancelled. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundCampaign"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["CampaignConflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    addFreeRoundPlayers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The campaign's id.
                 * @example 4f3e2d1c-0b9a-4877-8665-544332211000
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FreeRoundPlayersRequest"];
            };
        };
        responses: {
            /** @description How many grants were made, and how many existed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundPlayersAdded"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["CampaignConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    cancelFreeRoundGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The campaign's id.
                 * @example 4f3e2d1c-0b9a-4877-8665-544332211000
                 */
                id: string;
                /**
                 * @description Your identifier of the player, as in sessions.
                 * @example player-1
                 */
                player_id: components["parameters"]["PlayerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The player's grant, cancelled. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundGrant"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["GrantOver"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listFreeRoundGrants: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only this player's.
                 * @example player-1
                 */
                player_id?: components["schemas"]["OperatorId"];
                /**
                 * @description Only this campaign's.
                 * @example 4f3e2d1c-0b9a-4877-8665-544332211000
                 */
                campaign_id?: string;
                /**
                 * @description Only grants in this status (as the clock makes it).
                 * @example in_progress
                 */
                status?: "pending" | "in_progress" | "completed" | "expired" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundGrantList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFreeRoundGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The grant's id.
                 * @example 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The grant. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FreeRoundGrant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGgrReport: {
        parameters: {
            query: {
                /**
                 * @description The first UTC day.
                 * @example 2026-11-24
                 */
                from: components["schemas"]["Day"];
                /**
                 * @description The last UTC day (included), at most 365 days after `from`.
                 * @example 2026-11-24
                 */
                to: components["schemas"]["Day"];
                /**
                 * @description Comma-separated: any of `day`, `provider`, `game`, `currency`, `player`. Cells are always of one currency; without `group_by`, one cell per currency.
                 * @example day,provider
                 */
                group_by?: string;
                /**
                 * @description Only this currency.
                 * @example EUR
                 */
                currency?: components["schemas"]["CurrencyCode"];
                /**
                 * @description Only this provider (slug).
                 * @example pragmatic-play
                 */
                provider?: string;
                /**
                 * @description Only this game, `<provider slug>:<game code>`.
                 * @example pragmatic-play:vs20olympgate
                 */
                game_id?: components["schemas"]["GameId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GgrReport"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["ReportTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listReconciliationTransactions: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 1000 (JSON only).
                 * @example 100
                 */
                limit?: number;
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The UTC day. Give `date`, or `from` and `to`.
                 * @example 2026-11-24
                 */
                date?: components["schemas"]["Day"];
                /**
                 * @description The range's start (included), with `to`.
                 * @example 2026-11-24T00:00:00Z
                 */
                from?: components["schemas"]["DateTime"];
                /**
                 * @description The range's end (excluded), at most 31 days after `from`.
                 * @example 2026-11-25T00:00:00Z
                 */
                to?: components["schemas"]["DateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page, or the CSV. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReconciliationPage"];
                    /** @example created_at,id,provider,transaction_id,type,round_id,round,session_id,player_id,game_id,currency,amount,moved,related_transaction_id,wallet_mode,ledger_transaction_id,review,wallet_call_id,wallet_call_status */
                    "text/csv": string;
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getStatement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description `YYYY-MM` (UTC).
                 * @example 2026-10
                 */
                month: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statement. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Statement"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    providerFreeRounds: {
        parameters: {
            query: {
                /**
                 * @description The session's launch token.
                 * @example eyJhbGciOiJFZERTQSIsImtpZCI6IlFiM3QiLCJ0eXAiOiJKV1QifQ.eyJqdGkiOiIwYjZiN2E4ZS0zYzFmLTRkMmEtOWU1Ny01ZjdjMWQyYTRiOTAifQ.c2lnbmF0dXJl
                 */
                session_token: components["schemas"]["SessionToken"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usable grants. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderFreeRounds"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["ProviderUnauthorized"];
            403: components["responses"]["InvalidSessionToken"];
            404: components["responses"]["UnknownSession"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    providerFreeRoundPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The grant's id.
                 * @example 9a4c3f2e-6d1b-4c8e-a0f5-2b7d9e1c3a55
                 */
                grant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderFreeRoundPayoutRequest"];
            };
        };
        responses: {
            200: components["responses"]["ProviderAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["DuplicateTransaction"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ProviderRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerSportsbookPlace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SportsbookPlaceRequest"];
            };
        };
        responses: {
            200: components["responses"]["SportsbookAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            403: components["responses"]["InvalidSessionToken"];
            404: components["responses"]["UnknownSession"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SportsbookConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["SportsbookRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerSportsbookCommit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The provider's id of the bet.
                 * @example bet-5001
                 */
                bet_id: components["schemas"]["SportsbookBetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SportsbookCallRequest"];
            };
        };
        responses: {
            200: components["responses"]["SportsbookAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SportsbookConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["SportsbookRefused"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerSportsbookDiscard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The provider's id of the bet.
                 * @example bet-5001
                 */
                bet_id: components["schemas"]["SportsbookBetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SportsbookCallRequest"];
            };
        };
        responses: {
            200: components["responses"]["SportsbookAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SportsbookConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["SportsbookRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerSportsbookSettle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The provider's id of the bet.
                 * @example bet-5001
                 */
                bet_id: components["schemas"]["SportsbookBetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SportsbookSettlementRequest"];
            };
        };
        responses: {
            200: components["responses"]["SportsbookAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SportsbookConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["SportsbookRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerSportsbookUnsettle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The provider's id of the bet.
                 * @example bet-5001
                 */
                bet_id: components["schemas"]["SportsbookBetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SportsbookUnsettleRequest"];
            };
        };
        responses: {
            200: components["responses"]["SportsbookAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SportsbookConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["SportsbookRefused"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["WalletUnanswered"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    providerSportsbookClose: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The provider's id of the bet.
                 * @example bet-5001
                 */
                bet_id: components["schemas"]["SportsbookBetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SportsbookCallRequest"];
            };
        };
        responses: {
            200: components["responses"]["SportsbookAnswered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ProviderUnauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SportsbookConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["SportsbookRefused"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    listSportsbookBets: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 1 to 100.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The previous page's `next_cursor`, as it came: opaque.
                 * @example WyI5ZjFjMmI3ZS01YTFkLTRjM2UtOGYwMC0yZDRiNmE4YzBlMTIiLCJ2czIwb2x5bXBnYXRlIl0
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only bets in this status.
                 * @example settled
                 */
                status?: components["schemas"]["SportsbookBetStatus"];
                /**
                 * @description Only this player's.
                 * @example player-42
                 */
                player_id?: components["schemas"]["OperatorId"];
                /**
                 * @description Only bets whose last settlement came after this instant.
                 * @example 2026-11-26T00:00:00Z
                 */
                settled_after?: components["schemas"]["DateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SportsbookBetList"];
                };
            };
            400: components["responses"]["InvalidParameters"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSportsbookBet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The bet's `id` (not the provider's `bet_id`).
                 * @example 7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bet. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SportsbookBet"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    settleSandboxFixture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The fixture: the `fixture_id` of the demo sportsbook's selections.
                 * @example northport-eastbay
                 */
                fixture_id: components["schemas"]["SandboxFixtureId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxFixtureOutcomeRequest"];
            };
        };
        responses: {
            /** @description The fixture's outcome and the bets it changed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxFixtureSettled"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["FixtureConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    resettleSandboxFixture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The fixture: the `fixture_id` of the demo sportsbook's selections.
                 * @example northport-eastbay
                 */
                fixture_id: components["schemas"]["SandboxFixtureId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxFixtureOutcomeRequest"];
            };
        };
        responses: {
            /** @description The fixture's outcome and the bets it changed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxFixtureSettled"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["FixtureConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    voidSandboxFixture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The fixture: the `fixture_id` of the demo sportsbook's selections.
                 * @example northport-eastbay
                 */
                fixture_id: components["schemas"]["SandboxFixtureId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fixture's outcome and the bets it changed. */
            200: {
                headers: {
                    /**
                     * @description Never cached.
                     * @example no-store
                     */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxFixtureSettled"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["LiveKey"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["WriteUnavailable"];
        };
    };
    receiveEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every retry, the receiver's idempotency key. */
                "webhook-id": string;
                /** @description Seconds since the epoch when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per secret (two during a rotation), space-separated. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveWalletCall: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every retry, the receiver's idempotency key. */
                "webhook-id": string;
                /** @description Seconds since the epoch when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per secret (two during a rotation), space-separated. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "balance" | "debit" | "credit" | "rollback";
                    /** Format: uuid */
                    session_id: string;
                    player_id: string;
                    game_id: string;
                    currency: string;
                    transaction_id?: string;
                    round_id?: string;
                    amount?: components["schemas"]["Amount"];
                    rolled_back_transaction_id?: string;
                    round_closed?: boolean;
                    /** @description A sportsbook bet's call: the provider's `bet_id`, prefixed with its slug (`round_id` is the same). */
                    bet_id?: string;
                };
            };
        };
        responses: {
            /** @description Applied (or applied before): the balance after it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        balance: components["schemas"]["Amount"];
                    };
                };
            };
            /** @description Refused: nothing applied. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        balance?: components["schemas"]["Amount"];
                    };
                };
            };
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
