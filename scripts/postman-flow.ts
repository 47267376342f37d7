// What the Postman collection runs, top to bottom, with a test key: the order of the requests (each
// id an earlier answer gave, kept in a collection variable by that request's test script), what
// each sends instead of the document's examples, and what it checks. The examples document one
// request; run in a row, some of them would break the sandbox (a seamless URL nobody answers, a
// webhook endpoint retried for days, a cool-off on a demo player), so the run uses its own throwaway
// players, keeps the wallet in transfer mode and deletes the endpoint it made. Every operation of the
// document is exactly one step here: the generator refuses a document with one missing.

/** One request of the run. */
export interface Step {
  /** The statuses its test accepts; default: the operation's 2xx answers in the document. */
  expect?: number[];
  /** Path parameters, by name ({{variables}} allowed). */
  path?: Record<string, string>;
  /** Query parameters sent; every other one is left disabled (Postman shows it, ready to enable). */
  query?: Record<string, string>;
  /** The JSON body instead of the document's example. */
  body?: unknown;
  /** Collection variables its answer sets: name -> a JavaScript expression over `body` (the JSON). */
  capture?: Record<string, string>;
  /** Sent with the demo provider's key instead of the operator's. */
  providerKey?: boolean;
  /** A pre-request script. */
  prerequest?: string[];
  /** More test-script lines, after the status check (`body` is the JSON answer). */
  tests?: string[];
}

/** The collection's variables besides baseUrl (from the document's first server). */
export const flowVariables = [
  { key: 'bearerToken', value: '', description: 'Your API key. The run is written for a test key (cgs_test_...): with it, nothing touches live money.' },
  {
    key: 'providerKey', value: 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000',
    description: 'The provider requests\' key: the demo provider\'s public key, which plays test sessions only (docs/sandbox.md).',
  },
  { key: 'gameId', value: 'cgs-sandbox:lucky-sevens', description: 'A game of the demo provider (test keys only).' },
  { key: 'playerId', value: 'postman-player', description: 'The test player the run makes (again) and plays with.' },
  { key: 'restrictedPlayerId', value: 'postman-restricted', description: 'A throwaway player the run sets restrictions on.' },
  {
    key: 'webhookUrl', value: 'http://127.0.0.1:9/postman-webhooks',
    description: 'Where the run\'s webhook endpoint points (nothing listens there locally); the run deletes the endpoint at its end. Hosted: an https URL of yours.',
  },
  { key: 'resetSandbox', value: '', description: '"true" to end the run with POST /v3/sandbox/reset (removes all your test players, restrictions and endpoints).' },
];

const round = [
  'pm.collectionVariables.set("roundId", "postman-round-" + pm.variables.replaceIn("{{$guid}}"));',
  'pm.collectionVariables.set("betId", pm.variables.replaceIn("{{$guid}}"));',
];

/** Folders in the order they run, each its steps in order, by operationId. */
export const flow: { folder: string; description: string; steps: Record<string, Step> }[] = [
  {
    folder: 'discovery',
    description: 'Public documents: the launch-token keys and this description.',
    steps: { getJwks: {}, getOpenApiDescription: {} },
  },
  {
    folder: 'catalogue',
    description: 'What can be launched. A test key also sees the demo provider, cgs-sandbox.',
    steps: {
      listProviders: {},
      listCurrencies: {},
      listGames: {},
      getGame: { path: { game_id: '{{gameId}}' } },
    },
  },
  {
    folder: 'sandbox: a test player',
    description: 'A test player with a test balance, for the session below.',
    steps: {
      createSandboxPlayer: { body: { player_id: '{{playerId}}', currency: 'EUR', balance: '100.00' } },
      getSandboxPlayer: { path: { player_id: '{{playerId}}' } },
    },
  },
  {
    folder: 'sessions',
    description: 'A session of the test player in a demo game: its launch URL carries the token the provider requests use.',
    steps: {
      createSession: {
        body: { player_id: '{{playerId}}', game_id: '{{gameId}}', currency: 'EUR' },
        capture: { sessionId: 'body.id', sessionToken: 'decodeURIComponent(/[?&]token=([^&]+)/.exec(body.launch_url)[1])' },
      },
      getSession: { path: { id: '{{sessionId}}' } },
      listSessions: { query: { player_id: '{{playerId}}' } },
    },
  },
  {
    folder: 'provider',
    description: 'What the game server calls while the player plays (the demo provider\'s key): a round of a bet and a win, and a rollback of a bet never seen.',
    steps: {
      providerBalance: { providerKey: true, query: { session_token: '{{sessionToken}}' } },
      providerBet: {
        providerKey: true, prerequest: round,
        body: { session_token: '{{sessionToken}}', transaction_id: '{{betId}}', round_id: '{{roundId}}', amount: '1.00' },
      },
      providerRollback: {
        providerKey: true,
        body: { session_token: '{{sessionToken}}', transaction_id: '{{$guid}}', rolled_back_transaction_id: '{{$guid}}' },
      },
      providerWin: {
        providerKey: true,
        body: {
          session_token: '{{sessionToken}}', transaction_id: '{{$guid}}', round_id: '{{roundId}}', amount: '2.00',
          round_closed: true, bet_transaction_id: '{{betId}}',
        },
      },
    },
  },
  {
    folder: 'rounds',
    description: 'The round just played.',
    steps: {
      listRounds: { query: { session_id: '{{sessionId}}' }, capture: { roundUuid: 'body.data[0].id' } },
      getRound: { path: { id: '{{roundUuid}}' } },
    },
  },
  {
    folder: 'sportsbook',
    description: 'The sportsbook calls, the bets API and the demo sportsbook\'s fixtures. The run\'s session is the demo slot\'s, which takes no sportsbook bet (422 not_sportsbook: a session of cgs-sandbox:sportsbook does), so the run places none, remembers a discard and an unsettle of a bet nobody has seen (tombstones), is told the other calls name no bet, and settles, resettles and voids a fixture of its own, which no bet names.',
    steps: {
      providerSportsbookPlace: {
        providerKey: true, prerequest: ['pm.collectionVariables.set("sportsbookBetId", "postman-bet-" + pm.variables.replaceIn("{{$guid}}"));'],
        body: {
          session_token: '{{sessionToken}}', bet_id: '{{sportsbookBetId}}', transaction_id: '{{$guid}}', amount: '1.00', odds: '2.5',
          potential_payout: '2.50', selections: [{ event: 'Northport v Eastbay', market: '1X2', pick: '1' }],
        },
        expect: [422],
        tests: ['pm.test("a slot\'s session takes no sportsbook bet", function () { pm.expect(body.code).to.equal("not_sportsbook"); });'],
      },
      providerSportsbookCommit: {
        providerKey: true, path: { bet_id: '{{sportsbookBetId}}' }, body: { transaction_id: '{{$guid}}' }, expect: [422],
        tests: ['pm.test("no such bet", function () { pm.expect(body.code).to.equal("unknown_bet"); });'],
      },
      providerSportsbookSettle: {
        providerKey: true, path: { bet_id: '{{sportsbookBetId}}' }, body: { transaction_id: '{{$guid}}', result: 'won', payout: '2.50' },
        expect: [422], tests: ['pm.test("no such bet", function () { pm.expect(body.code).to.equal("unknown_bet"); });'],
      },
      providerSportsbookUnsettle: {
        providerKey: true, path: { bet_id: '{{sportsbookBetId}}' }, body: { transaction_id: '{{$guid}}', settlement_transaction_id: '{{$guid}}' },
        tests: ['pm.test("remembered", function () { pm.expect(body.status).to.equal(null); });'],
      },
      providerSportsbookClose: {
        providerKey: true, path: { bet_id: '{{sportsbookBetId}}' }, body: { transaction_id: '{{$guid}}' }, expect: [422],
        tests: ['pm.test("no such bet", function () { pm.expect(body.code).to.equal("unknown_bet"); });'],
      },
      providerSportsbookDiscard: {
        providerKey: true, path: { bet_id: '{{sportsbookBetId}}' }, body: { transaction_id: '{{$guid}}' },
        tests: ['pm.test("remembered: that bet is refused when it comes", function () { pm.expect(body.status).to.equal("discarded"); });'],
      },
      listSportsbookBets: { query: { player_id: '{{playerId}}' } },
      getSportsbookBet: { path: { id: '{{$guid}}' }, expect: [404] },
      settleSandboxFixture: {
        prerequest: ['pm.collectionVariables.set("fixtureId", "postman-" + pm.variables.replaceIn("{{$guid}}"));'],
        path: { fixture_id: '{{fixtureId}}' }, body: { outcome: 'home' },
        tests: ['pm.test("no bet names it", function () { pm.expect(body.bets).to.eql([]); });'],
      },
      resettleSandboxFixture: { path: { fixture_id: '{{fixtureId}}' }, body: { outcome: 'away' } },
      voidSandboxFixture: { path: { fixture_id: '{{fixtureId}}' } },
    },
  },
  {
    folder: 'reports',
    description: 'Today\'s GGR by day and provider, today\'s reconciliation, where the round just played shows (in the key\'s mode), and this month\'s statement.',
    steps: {
      getGgrReport: {
        prerequest: ['pm.collectionVariables.set("reportDay", new Date().toISOString().slice(0, 10));'],
        query: { from: '{{reportDay}}', to: '{{reportDay}}', group_by: 'day,provider' },
        tests: ['pm.test("the round played counts", function () { pm.expect(body.totals.map(function (t) { return t.currency; })).to.include("EUR"); });'],
      },
      listReconciliationTransactions: {
        query: { date: '{{reportDay}}' },
        tests: ['pm.test("the day\'s totals come first", function () { pm.expect(body.totals).to.be.an("array"); });'],
      },
      getStatement: {
        path: { month: '{{reportMonth}}' },
        prerequest: ['pm.collectionVariables.set("reportMonth", new Date().toISOString().slice(0, 7));'],
        tests: ['pm.test("a test key\'s statement owes nothing", function () { pm.expect(body.fee_rate).to.equal(null); });'],
      },
    },
  },
  {
    folder: 'money',
    description: 'Balances and ledger (a test key has none: the float is live money), and the wallet settings, left in transfer mode.',
    steps: {
      listWallets: {},
      listTransactions: {},
      getWalletSettings: {},
      putWalletSettings: { body: { mode: 'transfer' } },
    },
  },
  {
    folder: 'compliance',
    description: 'Jurisdictions, and restrictions on a throwaway player: limits only, no self-exclusion or cool-off.',
    steps: {
      listJurisdictions: { capture: { jurisdictionCode: 'body.data[0].code' } },
      getJurisdiction: { path: { code: '{{jurisdictionCode}}' } },
      getPlayerRestrictions: { path: { player_id: '{{restrictedPlayerId}}' } },
      putPlayerRestrictions: {
        path: { player_id: '{{restrictedPlayerId}}' },
        body: { loss_limits: { EUR: { day: '50', month: '500' } }, stake_limits: { EUR: '2' }, session_time_limit_minutes: 120 },
      },
    },
  },
  {
    folder: 'webhooks',
    description: 'An endpoint made, read, changed, tried and deleted again, and the events of the run.',
    steps: {
      createWebhookEndpoint: { body: { url: '{{webhookUrl}}', description: 'Made by the Postman run, which deletes it' }, capture: { endpointId: 'body.id' } },
      listWebhookEndpoints: {},
      getWebhookEndpoint: { path: { id: '{{endpointId}}' } },
      updateWebhookEndpoint: { path: { id: '{{endpointId}}' }, body: { enabled: false } },
      rotateWebhookSecret: { path: { id: '{{endpointId}}' } },
      testWebhookEndpoint: { path: { id: '{{endpointId}}' } },
      listEvents: { capture: { eventId: 'body.data[0].id' } },
      getEvent: { path: { id: '{{eventId}}' } },
      redeliverEvent: { path: { id: '{{eventId}}' } },
      listEventDeliveries: { path: { id: '{{eventId}}' } },
      deleteWebhookEndpoint: { path: { id: '{{endpointId}}' } },
    },
  },
  {
    folder: 'free rounds',
    description: 'A campaign of free rounds on the demo game for the run\'s player (its own external_id each run, valid for a week), another player added and removed again, its grants read, and the campaign cancelled.',
    steps: {
      createFreeRoundCampaign: {
        prerequest: [
          'pm.collectionVariables.set("campaignExternalId", "postman-" + pm.variables.replaceIn("{{$guid}}"));',
          'pm.collectionVariables.set("campaignValidUntil", new Date(Date.now() + 7 * 86400000).toISOString());',
        ],
        body: {
          external_id: '{{campaignExternalId}}', name: 'Postman run', game_ids: ['{{gameId}}'], currency: 'EUR', bet_amount: '0.20',
          rounds: 10, valid_until: '{{campaignValidUntil}}', player_ids: ['{{playerId}}'],
        },
        expect: [201],
        capture: { campaignId: 'body.id' },
      },
      listFreeRoundCampaigns: {},
      getFreeRoundCampaign: { path: { id: '{{campaignId}}' } },
      addFreeRoundPlayers: { path: { id: '{{campaignId}}' }, body: { player_ids: ['{{restrictedPlayerId}}'] } },
      listFreeRoundGrants: { query: { campaign_id: '{{campaignId}}' }, capture: { grantId: 'body.data[0].id' } },
      getFreeRoundGrant: { path: { id: '{{grantId}}' } },
      providerFreeRounds: {
        providerKey: true, query: { session_token: '{{sessionToken}}' },
        tests: ['pm.test("the run\'s player can play its grant", function () { pm.expect(body.data.map(function (g) { return g.campaign_id; })).to.include(pm.collectionVariables.get("campaignId")); });'],
      },
      // The demo game pays free rounds per round, and no round of this grant was played: nothing to pay out.
      providerFreeRoundPayout: {
        providerKey: true, path: { grant_id: '{{grantId}}' }, body: { transaction_id: '{{$guid}}', amount: '1.00' }, expect: [422],
      },
      // The added player leaves the campaign: its grant, not started, ends cancelled.
      cancelFreeRoundGrant: {
        path: { id: '{{campaignId}}', player_id: '{{restrictedPlayerId}}' },
        tests: ['pm.test("the player\'s grant is cancelled", function () { pm.expect(body.status).to.equal("cancelled"); pm.expect(body.rounds_left).to.equal(0); });'],
      },
      cancelFreeRoundCampaign: {
        path: { id: '{{campaignId}}' },
        tests: ['pm.test("the campaign is cancelled", function () { pm.expect(body.status).to.equal("cancelled"); });'],
      },
    },
  },
  {
    folder: 'sandbox: checks and clean-up',
    description: 'The wallet self-check (409 not_seamless while the test wallet is in transfer mode), the session closed, and the reset when resetSandbox is "true".',
    steps: {
      checkSandboxWallet: {
        body: { player_id: '{{playerId}}', currency: 'EUR' },
        expect: [200, 409],
        tests: ['if (pm.response.code === 409) pm.test("409 only because the wallet is not seamless", function () { pm.expect(body.code).to.equal("not_seamless"); });'],
      },
      closeSession: { path: { id: '{{sessionId}}' } },
      resetSandbox: { prerequest: ['if (pm.variables.get("resetSandbox") !== "true") pm.execution.skipRequest();'] },
    },
  },
];
