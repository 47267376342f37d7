// The operator's client for API v3 over fetch: sessions, the catalogue, wallets and transactions.
// Errors are ApiError; retries only where they cannot create a second session. Every list returns
// one page (`list`) or walks all of them by cursor (`iterate`).
import { ApiError } from './api-error.ts';
import { RETRYABLE_STATUSES, retryDelayMs, type RetryOptions, retryPolicy, sleep } from './retry.ts';
import type {
  CreatedSession,
  Currency,
  Jurisdiction,
  PlayerRestrictions,
  PlayerRestrictionsInput,
  SandboxPlayer,
  SandboxPlayerBalances,
  SandboxPlayerInput,
  WalletCheckReport,
  SandboxReset,
  SandboxFixtureOutcome,
  SandboxFixtureSettled,
  SportsbookBet,
  SportsbookBetListQuery,
  Game,
  GameListQuery,
  GameSession,
  Page,
  PageQuery,
  Provider,
  Event,
  EventListQuery,
  FreeRoundCampaign,
  FreeRoundCampaignInput,
  FreeRoundCampaignListQuery,
  FreeRoundGrant,
  FreeRoundGrantListQuery,
  FreeRoundPlayersAdded,
  GgrReport,
  GgrReportQuery,
  ReconciliationLine,
  ReconciliationPage,
  ReconciliationQuery,
  Statement,
  Round,
  RoundDetail,
  RoundListQuery,
  WalletSettings,
  WalletSettingsChanged,
  WalletSettingsInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointInput,
  WebhookEndpointWithSecret,
  SessionInput,
  SessionListQuery,
  SessionRequest,
  Transaction,
  TransactionListQuery,
  Wallet,
} from './types.ts';

const DEFAULT_TIMEOUT_MS = 15_000;

export interface OperatorClientOptions {
  /** The API's server URL: `{SUPABASE_URL}/functions/v1`, or `http://127.0.0.1:54321/functions/v1` locally. */
  baseUrl: string;
  /** Your API key (`cgs_live_...`, or `cgs_test_...` for test mode). */
  apiKey: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
  /** How many times to retry a 409, a 503, a network failure or a timeout (a number), or the full policy. */
  retries?: number | RetryOptions;
  /**
   * How long one attempt may take, answer body included, before it counts as failed (and is retried
   * like a network failure): 15 s by default, which covers the function's own 5 s connect and 5 s
   * statement timeouts. Without it a connection that never answers holds a call for minutes.
   */
  timeoutMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface CreateSessionOptions extends RequestOptions {
  /**
   * Makes retries safe: the server replays the first answer for the same key and body. One is
   * generated per call when absent, so the SDK's own retries never create a second session; pass
   * your own (an order id, say) to make retries across processes safe too.
   */
  idempotencyKey?: string;
}

/** A list: one page by `list`, or every item, page after page, by `iterate`. */
export interface ListMethods<T, Q> {
  list(query?: Q, options?: RequestOptions): Promise<Page<T>>;
  /** Every item from `query.cursor` (or the start) on, fetching each page when the last is used up. */
  iterate(query?: Q, options?: RequestOptions): AsyncGenerator<T, void, undefined>;
}

export interface OperatorClient {
  sessions: ListMethods<GameSession, SessionListQuery> & {
    create(input: SessionInput, options?: CreateSessionOptions): Promise<CreatedSession>;
    get(id: string, options?: RequestOptions): Promise<GameSession>;
    /** Ends a session: no more bets; wins and rollbacks of rounds played still settle. */
    close(id: string, options?: RequestOptions): Promise<GameSession>;
  };
  games: ListMethods<Game, GameListQuery> & {
    /** One active game by its `<provider slug>:<game code>`. */
    get(gameId: string, options?: RequestOptions): Promise<Game>;
  };
  providers: ListMethods<Provider, PageQuery>;
  currencies: ListMethods<Currency, PageQuery>;
  jurisdictions: ListMethods<Jurisdiction, PageQuery> & {
    /** One jurisdiction and the rules its sessions follow, by code (`GB`, `MT`, ...). */
    get(code: string, options?: RequestOptions): Promise<Jurisdiction>;
  };
  wallets: ListMethods<Wallet, PageQuery>;
  transactions: ListMethods<Transaction, TransactionListQuery>;
  rounds: ListMethods<Round, RoundListQuery> & {
    /** One round by its `id`, with its transactions. */
    get(id: string, options?: RequestOptions): Promise<RoundDetail>;
  };
  webhookEndpoints: ListMethods<WebhookEndpoint, PageQuery> & {
    /** The answer carries the signing secret, this once. Not retried: a retry would add a second endpoint. */
    create(input: WebhookEndpointInput, options?: RequestOptions): Promise<WebhookEndpointWithSecret>;
    get(id: string, options?: RequestOptions): Promise<WebhookEndpoint>;
    update(id: string, change: WebhookEndpointChange, options?: RequestOptions): Promise<WebhookEndpoint>;
    delete(id: string, options?: RequestOptions): Promise<WebhookEndpoint>;
    /** A new secret, this once; the old one keeps signing for 24 hours. */
    rotateSecret(id: string, options?: RequestOptions): Promise<WebhookEndpointWithSecret>;
    /** An `endpoint.ping` event, sent to this endpoint alone. */
    test(id: string, options?: RequestOptions): Promise<Event>;
  };
  events: ListMethods<Event, EventListQuery> & {
    get(id: string, options?: RequestOptions): Promise<Event>;
    /** Its deliveries, each with every attempt. */
    deliveries(id: string, options?: RequestOptions): Promise<WebhookDelivery[]>;
    /** Sends it again now, to each endpoint that wants it. */
    redeliver(id: string, options?: RequestOptions): Promise<WebhookDelivery[]>;
  };
  /** Test keys only. */
  sandbox: {
    /** Gives a player a test balance in a currency (made again, it is reset). */
    createPlayer(input: SandboxPlayerInput, options?: RequestOptions): Promise<SandboxPlayer>;
    /** A test player's balance and behaviour in each currency it has one in. */
    getPlayer(playerId: string, options?: RequestOptions): Promise<SandboxPlayerBalances>;
    /** Plays the self-check against your seamless test wallet. */
    checkWallet(input: { playerId: string; currency: string }, options?: RequestOptions): Promise<WalletCheckReport>;
    /**
     * Puts your test world back: removes your test players, their restrictions and your test
     * webhook endpoints, sets your test wallet to transfer, closes your test sessions, ends your test
     * rounds, free rounds and sportsbook bets (moving no money) and clears the demo fixtures'
     * outcomes; says how many of each.
     */
    reset(options?: RequestOptions): Promise<SandboxReset>;
    /**
     * The demo sportsbook's fixtures (`cgs-sandbox:sportsbook`): gives one its outcome, and each of
     * your test bets naming it is settled as its legs say (`409 fixture_settled` if it has one).
     */
    settleFixture(fixtureId: string, outcome: SandboxFixtureOutcome, options?: RequestOptions): Promise<SandboxFixtureSettled>;
    /** Changes a settled fixture's outcome (`409 fixture_not_settled` if it has none): its bets are resettled. */
    resettleFixture(fixtureId: string, outcome: SandboxFixtureOutcome, options?: RequestOptions): Promise<SandboxFixtureSettled>;
    /** Voids a fixture, settled or not: its legs count as void. */
    voidFixture(fixtureId: string, options?: RequestOptions): Promise<SandboxFixtureSettled>;
  };
  /** Sportsbook bets placed in your sessions, each with every settlement (newest first). */
  sportsbook: {
    bets: ListMethods<SportsbookBet, SportsbookBetListQuery> & {
      /** One bet by its `id` (not the provider's `bet_id`). */
      get(id: string, options?: RequestOptions): Promise<SportsbookBet>;
    };
  };
  freeRounds: {
    campaigns: ListMethods<FreeRoundCampaign, FreeRoundCampaignListQuery> & {
      /**
       * Not retried by the SDK; safe to call again yourself with the same `externalId`: the same
       * input answers the campaign, another one is `409 external_id_conflict`.
       */
      create(input: FreeRoundCampaignInput, options?: RequestOptions): Promise<FreeRoundCampaign>;
      get(id: string, options?: RequestOptions): Promise<FreeRoundCampaign>;
      /** Grants not started end cancelled; a grant in play finishes its open round. */
      cancel(id: string, options?: RequestOptions): Promise<FreeRoundCampaign>;
      /** Up to 1,000 players a call; players already granted are left as they are. */
      addPlayers(id: string, playerIds: string[], options?: RequestOptions): Promise<FreeRoundPlayersAdded>;
      /**
       * Cancels one player's grant, started or not (a round in play still settles); a cancelled
       * grant is answered as it is. `409 campaign_ended` or `grant_completed` once it is over.
       */
      removePlayer(id: string, playerId: string, options?: RequestOptions): Promise<FreeRoundGrant>;
    };
    grants: ListMethods<FreeRoundGrant, FreeRoundGrantListQuery> & {
      get(id: string, options?: RequestOptions): Promise<FreeRoundGrant>;
    };
  };
  reports: {
    /** GGR, turnover, rollbacks and voids, rounds and players from `from` to `to` (UTC days, at most 366). */
    ggr(query: GgrReportQuery, options?: RequestOptions): Promise<GgrReport>;
    /**
     * Every round transaction of a UTC `date` (or `from` to `to`), oldest first: `list` a page
     * (the first with the range's totals) or `iterate` every line.
     */
    reconciliation: {
      list(query: ReconciliationQuery, options?: RequestOptions): Promise<ReconciliationPage>;
      iterate(query: ReconciliationQuery, options?: RequestOptions): AsyncGenerator<ReconciliationLine, void, undefined>;
      /** The whole range as one CSV text (RFC 4180, a header row, formula cells guarded), as a spreadsheet opens it. */
      csv(query: Omit<ReconciliationQuery, 'limit' | 'cursor'>, options?: RequestOptions): Promise<string>;
    };
    /** The month's statement (`2026-10`): GGR per provider and currency, your fee rate and the amount due. */
    statement(month: string, options?: RequestOptions): Promise<Statement>;
  };
  players: {
    /** A player's responsible-gaming restrictions (all empty when none were set). */
    getRestrictions(playerId: string, options?: RequestOptions): Promise<PlayerRestrictions>;
    /** Replaces them as a whole, at once; a running exclusion cannot be shortened (`409 exclusion_active`). */
    setRestrictions(playerId: string, input: PlayerRestrictionsInput, options?: RequestOptions): Promise<PlayerRestrictions>;
  };
  walletSettings: {
    get(options?: RequestOptions): Promise<WalletSettings>;
    /** The answer carries the signing secret when one was made. Not retried. */
    set(input: WalletSettingsInput, options?: RequestOptions): Promise<WalletSettingsChanged>;
  };
}

/** camelCased keys as the API's snake_case ones (`updatedSince` is `updated_since`); undefined values left out. */
function snakeCased(object: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]));
}

/** A camelCased query as the API's query string. */
function queryString(query: object): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(snakeCased(query))) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  /** The answer as text (CSV), not JSON. */
  text?: boolean;
}

const endpointPath = (id: string) => `/v3/webhook-endpoints/${encodeURIComponent(id)}`;
const campaignPath = (id: string) => `/v3/free-rounds/campaigns/${encodeURIComponent(id)}`;
const restrictionsPath = (playerId: string) => `/v3/players/${encodeURIComponent(playerId)}/restrictions`;
const fixturePath = (fixtureId: string) => `/v3/sandbox/sportsbook/fixtures/${encodeURIComponent(fixtureId)}`;

export function createOperatorClient(options: OperatorClientOptions): OperatorClient {
  // Checked here, not by fetch: its TypeError would look like a network failure and be retried.
  // Neither value is quoted back: a key set in the wrong variable would end up in the logs.
  const baseUrl = typeof options.baseUrl === 'string' ? options.baseUrl.replace(/\/+$/, '') : '';
  if (!URL.canParse(baseUrl) || !['http:', 'https:'].includes(new URL(baseUrl).protocol)) {
    throw new TypeError('baseUrl must be an absolute http(s) URL');
  }
  if (typeof options.apiKey !== 'string' || !options.apiKey.trim()) throw new TypeError('apiKey is missing');
  try {
    new Headers({ authorization: `Bearer ${options.apiKey}` });
  } catch {
    throw new TypeError('apiKey holds characters an HTTP header cannot carry');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const policy = retryPolicy(options.retries);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new RangeError(`timeoutMs must be a positive number, not ${timeoutMs}`);

  async function call<T>({ method, path, headers, body, signal, text }: Call): Promise<T> {
    // A POST is repeated only under an Idempotency-Key: the server then answers a retry with the
    // first outcome instead of acting twice. A GET changes nothing.
    const retryable = method === 'GET' || headers?.['idempotency-key'] !== undefined;
    const init: RequestInit = {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${options.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    for (let attempt = 0;; attempt++) {
      const canRetry = retryable && attempt < policy.max;
      // The caller's signal ends the whole call; the attempt's timeout only this attempt.
      const timeout = AbortSignal.timeout(timeoutMs);
      const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      let answer: T;
      try {
        response = await fetchImpl(`${baseUrl}${path}`, { ...init, signal: attemptSignal });
        // A 2xx body is read within the attempt: a body that stalls times out like a silent server.
        if (response.ok) answer = (text ? await response.text() : await response.json()) as T;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!canRetry || (!timeout.aborted && !(error instanceof TypeError))) throw timeout.aborted ? timeout.reason : error;
        await sleep(retryDelayMs(policy, attempt), signal);
        continue;
      }
      if (response.ok) return answer!;
      if (canRetry && RETRYABLE_STATUSES.has(response.status)) {
        await response.body?.cancel();
        await sleep(retryDelayMs(policy, attempt, response.headers.get('retry-after')), signal);
        continue;
      }
      throw await ApiError.fromResponse(response);
    }
  }

  function listOf<T, Q extends { cursor?: string }>(path: string): ListMethods<T, Q> {
    const list = (query: Q = {} as Q, { signal }: RequestOptions = {}) =>
      call<Page<T>>({ method: 'GET', path: `${path}${queryString(query)}`, signal });
    return {
      list,
      async *iterate(query = {} as Q, options = {}) {
        let cursor = query.cursor;
        do {
          const page = await list({ ...query, cursor }, options);
          yield* page.data;
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
      },
    };
  }

  return {
    sessions: {
      ...listOf<GameSession, SessionListQuery>('/v3/sessions'),
      create: (input, { idempotencyKey = crypto.randomUUID(), signal } = {}) =>
        call<CreatedSession>({
          method: 'POST',
          path: '/v3/sessions',
          headers: { 'idempotency-key': idempotencyKey },
          // Only the request's fields: the API refuses unknown ones.
          body: snakeCased({
            playerId: input.playerId, gameId: input.gameId, currency: input.currency, country: input.country,
            jurisdiction: input.jurisdiction, kycStatus: input.kycStatus, realityCheckMinutes: input.realityCheckMinutes,
          }) as SessionRequest,
          signal,
        }),
      get: (id, { signal } = {}) =>
        call<GameSession>({ method: 'GET', path: `/v3/sessions/${encodeURIComponent(id)}`, signal }),
      close: (id, { signal } = {}) =>
        call<GameSession>({ method: 'POST', path: `/v3/sessions/${encodeURIComponent(id)}/close`, signal }),
    },
    games: {
      ...listOf<Game, GameListQuery>('/v3/games'),
      get: (gameId, { signal } = {}) => call<Game>({ method: 'GET', path: `/v3/games/${encodeURIComponent(gameId)}`, signal }),
    },
    providers: listOf<Provider, PageQuery>('/v3/providers'),
    currencies: listOf<Currency, PageQuery>('/v3/currencies'),
    jurisdictions: {
      ...listOf<Jurisdiction, PageQuery>('/v3/jurisdictions'),
      get: (code, { signal } = {}) =>
        call<Jurisdiction>({ method: 'GET', path: `/v3/jurisdictions/${encodeURIComponent(code)}`, signal }),
    },
    wallets: listOf<Wallet, PageQuery>('/v3/wallets'),
    transactions: listOf<Transaction, TransactionListQuery>('/v3/transactions'),
    rounds: {
      ...listOf<Round, RoundListQuery>('/v3/rounds'),
      get: (id, { signal } = {}) => call<RoundDetail>({ method: 'GET', path: `/v3/rounds/${encodeURIComponent(id)}`, signal }),
    },
    webhookEndpoints: {
      ...listOf<WebhookEndpoint, PageQuery>('/v3/webhook-endpoints'),
      create: (input, { signal } = {}) =>
        call<WebhookEndpointWithSecret>({ method: 'POST', path: '/v3/webhook-endpoints', body: snakeCased(input), signal }),
      get: (id, { signal } = {}) => call<WebhookEndpoint>({ method: 'GET', path: endpointPath(id), signal }),
      update: (id, change, { signal } = {}) =>
        call<WebhookEndpoint>({ method: 'PATCH', path: endpointPath(id), body: snakeCased(change), signal }),
      delete: (id, { signal } = {}) => call<WebhookEndpoint>({ method: 'DELETE', path: endpointPath(id), signal }),
      rotateSecret: (id, { signal } = {}) =>
        call<WebhookEndpointWithSecret>({ method: 'POST', path: `${endpointPath(id)}/rotate-secret`, signal }),
      test: (id, { signal } = {}) => call<Event>({ method: 'POST', path: `${endpointPath(id)}/test`, signal }),
    },
    events: {
      ...listOf<Event, EventListQuery>('/v3/events'),
      get: (id, { signal } = {}) => call<Event>({ method: 'GET', path: `/v3/events/${encodeURIComponent(id)}`, signal }),
      deliveries: async (id, { signal } = {}) =>
        (await call<{ data: WebhookDelivery[] }>({ method: 'GET', path: `/v3/events/${encodeURIComponent(id)}/deliveries`, signal })).data,
      redeliver: async (id, { signal } = {}) =>
        (await call<{ data: WebhookDelivery[] }>({ method: 'POST', path: `/v3/events/${encodeURIComponent(id)}/redeliver`, signal })).data,
    },
    sandbox: {
      createPlayer: (input, { signal } = {}) =>
        call<SandboxPlayer>({ method: 'POST', path: '/v3/sandbox/players', body: snakeCased(input), signal }),
      getPlayer: (playerId, { signal } = {}) =>
        call<SandboxPlayerBalances>({ method: 'GET', path: `/v3/sandbox/players/${encodeURIComponent(playerId)}`, signal }),
      checkWallet: (input, { signal } = {}) =>
        call<WalletCheckReport>({ method: 'POST', path: '/v3/sandbox/wallet-checks', body: snakeCased(input), signal }),
      reset: ({ signal } = {}) => call<SandboxReset>({ method: 'POST', path: '/v3/sandbox/reset', signal }),
      settleFixture: (fixtureId, outcome, { signal } = {}) =>
        call<SandboxFixtureSettled>({ method: 'POST', path: `${fixturePath(fixtureId)}/settle`, body: { outcome }, signal }),
      resettleFixture: (fixtureId, outcome, { signal } = {}) =>
        call<SandboxFixtureSettled>({ method: 'POST', path: `${fixturePath(fixtureId)}/resettle`, body: { outcome }, signal }),
      voidFixture: (fixtureId, { signal } = {}) =>
        call<SandboxFixtureSettled>({ method: 'POST', path: `${fixturePath(fixtureId)}/void`, signal }),
    },
    sportsbook: {
      bets: {
        ...listOf<SportsbookBet, SportsbookBetListQuery>('/v3/sportsbook/bets'),
        get: (id, { signal } = {}) => call<SportsbookBet>({ method: 'GET', path: `/v3/sportsbook/bets/${encodeURIComponent(id)}`, signal }),
      },
    },
    freeRounds: {
      campaigns: {
        ...listOf<FreeRoundCampaign, FreeRoundCampaignListQuery>('/v3/free-rounds/campaigns'),
        create: (input, { signal } = {}) =>
          call<FreeRoundCampaign>({ method: 'POST', path: '/v3/free-rounds/campaigns', body: snakeCased(input), signal }),
        get: (id, { signal } = {}) => call<FreeRoundCampaign>({ method: 'GET', path: campaignPath(id), signal }),
        cancel: (id, { signal } = {}) => call<FreeRoundCampaign>({ method: 'POST', path: `${campaignPath(id)}/cancel`, signal }),
        addPlayers: (id, playerIds, { signal } = {}) =>
          call<FreeRoundPlayersAdded>({ method: 'POST', path: `${campaignPath(id)}/players`, body: { player_ids: playerIds }, signal }),
        removePlayer: (id, playerId, { signal } = {}) =>
          call<FreeRoundGrant>({ method: 'DELETE', path: `${campaignPath(id)}/players/${encodeURIComponent(playerId)}`, signal }),
      },
      grants: {
        ...listOf<FreeRoundGrant, FreeRoundGrantListQuery>('/v3/free-rounds/grants'),
        get: (id, { signal } = {}) =>
          call<FreeRoundGrant>({ method: 'GET', path: `/v3/free-rounds/grants/${encodeURIComponent(id)}`, signal }),
      },
    },
    reports: {
      ggr: ({ groupBy, ...query }, { signal } = {}) =>
        call<GgrReport>({ method: 'GET', path: `/v3/reports/ggr${queryString({ ...query, groupBy: groupBy?.join(',') })}`, signal }),
      reconciliation: {
        ...listOf<ReconciliationLine, ReconciliationQuery>('/v3/reconciliation/transactions') as {
          list(query: ReconciliationQuery, options?: RequestOptions): Promise<ReconciliationPage>;
          iterate(query: ReconciliationQuery, options?: RequestOptions): AsyncGenerator<ReconciliationLine, void, undefined>;
        },
        csv: (query, { signal } = {}) => call<string>({
          method: 'GET', path: `/v3/reconciliation/transactions${queryString(query)}`, headers: { accept: 'text/csv' }, signal, text: true,
        }),
      },
      statement: (month, { signal } = {}) => call<Statement>({ method: 'GET', path: `/v3/statements/${encodeURIComponent(month)}`, signal }),
    },
    players: {
      getRestrictions: (playerId, { signal } = {}) =>
        call<PlayerRestrictions>({ method: 'GET', path: restrictionsPath(playerId), signal }),
      setRestrictions: (playerId, input, { signal } = {}) =>
        call<PlayerRestrictions>({ method: 'PUT', path: restrictionsPath(playerId), body: snakeCased(input), signal }),
    },
    walletSettings: {
      get: ({ signal } = {}) => call<WalletSettings>({ method: 'GET', path: '/v3/wallet-settings', signal }),
      set: (input, { signal } = {}) =>
        call<WalletSettingsChanged>({ method: 'PUT', path: '/v3/wallet-settings', body: snakeCased(input), signal }),
    },
  };
}
