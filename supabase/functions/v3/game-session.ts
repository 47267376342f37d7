// The GameSession resource as operators see it (the 201 of POST /v3/sessions, GET /v3/sessions/{id})
// and its launch URL: the game's start page with a signed, short-lived token.
import { Problem } from './problem.ts';
import { parameterContract } from './contract.ts';
import type { Rules, RulesOf } from './jurisdiction-rules.ts';
import type { LaunchCompliance, SessionTokenSigner } from './session-token.ts';

export interface GameSession {
  id: string;
  player_id: string;
  game_id: string;
  currency: string;
  /** `expired`: never launched and its launch window has closed. */
  status: 'created' | 'active' | 'closed' | 'expired';
  /** false: made with a test key, and seen only by test keys. */
  livemode: boolean;
  created_at: string;
  expires_at: string;
  /** Only while the session can still be launched (status `created`, before `expires_at`). */
  launch_url?: string;
  /** Only when the session was made under them. */
  jurisdiction?: string;
  kyc_status?: string;
  reality_check_minutes?: number;
}

/** A game_session row as private.read_game_session returns it. */
export interface GameSessionRow {
  id: string;
  player_id: string;
  game_id: string;
  currency: string;
  status: 'created' | 'active' | 'closed';
  livemode: boolean;
  created_at: Date;
  expires_at: Date;
  jurisdiction?: string | null;
  kyc_status?: string | null;
  reality_check_minutes?: number | null;
}

export interface LaunchOptions {
  signer: SessionTokenSigner;
  /** The launch URL with a token in it (withLaunchToken). */
  withToken: (token: string) => string;
  /** The same for the demo provider's games: the demo game page. */
  withDemoToken: (token: string) => string;
}

/** The sandbox's demo provider (the demo game migration): its games start on the demo game page. */
export const DEMO_PROVIDER = 'cgs-sandbox';

/**
 * The game's start page with `token` set in its query, as a function of the token: the base URL is
 * parsed once, at start-up (a LAUNCH_BASE_URL that is not an absolute http(s) URL stops the start
 * instead of failing every request), and each launch URL is then two strings joined rather than a
 * URL parsed and serialized again on every request. A token is base64url and dots, which a query
 * carries as they are.
 */
export function withLaunchToken(launchBaseUrl: string, setting = 'LAUNCH_BASE_URL'): (token: string) => string {
  const url = URL.parse(launchBaseUrl);
  // A player's browser opens it: a javascript:, data: or relative URL is a mistake in the settings.
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    throw new Error(`${setting} must be an absolute http(s) URL, not "${launchBaseUrl}"`);
  }
  url.searchParams.delete('token');
  const hash = url.hash;
  url.hash = '';
  const prefix = `${url.href}${url.search ? '&' : '?'}token=`;
  return (token) => `${prefix}${token}${hash}`;
}

/** The launch URL for a session, its token signed now and dying with the launch window. */
function launchUrl(
  { signer, withToken, withDemoToken }: LaunchOptions,
  session: GameSession,
  issuedAt: Date,
  expiresAt: Date,
  rules: Rules | undefined,
): string {
  const compliance: LaunchCompliance | undefined = session.jurisdiction || session.kyc_status || session.reality_check_minutes
    ? {
      jurisdiction: session.jurisdiction ?? null, rules: rules ?? null, kycStatus: session.kyc_status ?? null,
      realityCheckMinutes: session.reality_check_minutes ?? null,
    }
    : undefined;
  const provider = session.game_id.split(':')[0]!;
  const token = signer.sign({
    sessionId: session.id, playerId: session.player_id, provider,
    gameId: session.game_id, currency: session.currency, issuedAt, expiresAt, compliance,
  });
  return (provider === DEMO_PROVIDER ? withDemoToken : withToken)(token);
}

/** The rules of the sessions' jurisdictions, by code, for presentSession. */
export async function rulesFor(rows: Pick<GameSessionRow, 'jurisdiction'>[], rulesOf: RulesOf): Promise<Map<string, Rules>> {
  const codes = [...new Set(rows.flatMap((row) => (row.jurisdiction ? [row.jurisdiction] : [])))];
  const found = await Promise.all(codes.map(async (code) => [code, await rulesOf(code)] as const));
  return new Map(found.flatMap(([code, rules]) => (rules ? [[code, rules]] : [])));
}

/**
 * A stored session as of `now`: a fresh launch URL while it can be launched, `expired` after. Its
 * jurisdiction's rules (rulesFor) go in the token.
 */
export function presentSession(
  row: GameSessionRow, now: Date, launch: LaunchOptions, rulesByCode = new Map<string, Rules>(),
): GameSession {
  const session: GameSession = {
    id: row.id,
    player_id: row.player_id,
    game_id: row.game_id,
    currency: row.currency,
    status: row.status,
    livemode: row.livemode,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    ...(row.jurisdiction ? { jurisdiction: row.jurisdiction } : {}),
    ...(row.kyc_status ? { kyc_status: row.kyc_status } : {}),
    ...(row.reality_check_minutes ? { reality_check_minutes: row.reality_check_minutes } : {}),
  };
  if (row.status !== 'created') return session;
  if (now >= row.expires_at) return { ...session, status: 'expired' };
  const rules = row.jurisdiction ? rulesByCode.get(row.jurisdiction) : undefined;
  return { ...session, launch_url: launchUrl(launch, session, now, row.expires_at, rules) };
}

const isSessionId = parameterContract('/v3/sessions/{id}', 'get', 'path', 'id');

/** The {id} of /v3/sessions/{id}: a UUID, or 400 before the database sees it. */
export function parseSessionId(segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment;
  }
  if (!isSessionId(id)) throw new Problem('invalid_session_id', 'A session id is a UUID, as returned by POST /v3/sessions.');
  return id.toLowerCase();
}
