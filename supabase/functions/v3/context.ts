// What every v3 route works with: the dependencies index.ts wires (database, signer, clock, logger)
// and the settings read from the environment, resolved once when the app is created.
import { loggableError, type Sql } from '../_shared/database.ts';
import { booleanSetting, type Env, positiveSetting } from '../_shared/settings.ts';
import { WALLET_TIMEOUT_MS } from '../_shared/wallet-call.ts';
import { type LaunchOptions, withLaunchToken } from './game-session.ts';
import { jurisdictionRules, type RulesOf } from './jurisdiction-rules.ts';
import type { SessionTokenSigner } from './session-token.ts';

export interface SessionsConfig {
  /** Where a player starts the game; the launch token is appended as `?token=`. */
  launchBaseUrl: string;
  /** Where the sandbox's demo games start (the static demo game page); the token is appended the same way. */
  demoGameUrl: string;
  /** Launch window: the session and its token expire this long after creation. */
  sessionTtlSeconds: number;
  maxBodyBytes: number;
  /** ALLOW_PRIVATE_URLS: webhook and wallet URLs may be http and private (local runs only). */
  allowPrivateUrls: boolean;
  /** WALLET_TIMEOUT_MS: how long an operator's seamless wallet has to answer a call. */
  walletTimeoutMs: number;
}

export const defaultConfig: SessionsConfig = {
  launchBaseUrl: 'https://play.cgs.example/launch',
  demoGameUrl: 'https://demo.cgs.example/',
  sessionTtlSeconds: 15 * 60,
  maxBodyBytes: 16 * 1024,
  allowPrivateUrls: false,
  walletTimeoutMs: WALLET_TIMEOUT_MS.fallback,
};

/** A launch window is for starting a game: longer than a day is a mistake, not a choice. */
export const maxSessionTtlSeconds = 24 * 60 * 60;

/**
 * LAUNCH_BASE_URL, DEMO_GAME_URL and SESSION_TTL_SECONDS. A launch window that is not whole seconds up to a day stops
 * the start, naming the setting, instead of failing every request with a 500; the launch URL is
 * checked where it is parsed, when the handler is created (withLaunchToken).
 */
export function sessionsConfigFromEnv(
  env: Env,
): Pick<SessionsConfig, 'launchBaseUrl' | 'demoGameUrl' | 'sessionTtlSeconds' | 'allowPrivateUrls' | 'walletTimeoutMs'> {
  return {
    allowPrivateUrls: booleanSetting(env, 'ALLOW_PRIVATE_URLS', defaultConfig.allowPrivateUrls),
    walletTimeoutMs: positiveSetting(env, 'WALLET_TIMEOUT_MS', { ...WALLET_TIMEOUT_MS, integer: true }),
    launchBaseUrl: env('LAUNCH_BASE_URL') ?? defaultConfig.launchBaseUrl,
    demoGameUrl: env('DEMO_GAME_URL') ?? defaultConfig.demoGameUrl,
    sessionTtlSeconds: positiveSetting(env, 'SESSION_TTL_SECONDS', {
      fallback: defaultConfig.sessionTtlSeconds, integer: true, max: maxSessionTtlSeconds,
    }),
  };
}

export interface ApiDependencies {
  sql: Sql;
  /**
   * Where reads that may lag go (DATABASE_READ_URL, a replica): the catalogue and the lists. Money,
   * idempotency, keys that write and reads of what a caller just wrote stay on `sql`. Default `sql`.
   */
  readSql?: Sql;
  signer: SessionTokenSigner;
  clock?: () => Date;
  config?: Partial<SessionsConfig>;
  /** Where internal errors go, as loggableError describes them; never to the caller. */
  logError?: (message: string, error: unknown) => void;
}

export interface ApiContext {
  sql: Sql;
  /** The catalogue and the lists only: it may lag behind `sql` (see ApiDependencies). */
  readSql: Sql;
  signer: SessionTokenSigner;
  config: SessionsConfig;
  clock: () => Date;
  /** Logs an internal error, described by loggableError; never sent to the caller. */
  logError: (message: string, error: unknown) => void;
  launch: LaunchOptions;
  /** A jurisdiction's rules, for launch tokens. */
  rulesOf: RulesOf;
}

export function apiContext(deps: ApiDependencies): ApiContext {
  const config = { ...defaultConfig, ...deps.config };
  const log = deps.logError ?? ((message, error) => console.error(message, error));
  return {
    sql: deps.sql,
    readSql: deps.readSql ?? deps.sql,
    signer: deps.signer,
    config,
    clock: deps.clock ?? (() => new Date()),
    logError: (message, error) => log(message, loggableError(error)),
    launch: {
      signer: deps.signer,
      withToken: withLaunchToken(config.launchBaseUrl),
      withDemoToken: withLaunchToken(config.demoGameUrl, 'DEMO_GAME_URL'),
    },
    rulesOf: jurisdictionRules(deps.sql),
  };
}
