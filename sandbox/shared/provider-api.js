// What the sandbox's demo pages share (the demo game and the demo sportsbook, both the demo
// provider's products): the launch token's claims and the platform's real provider API, called as a
// provider's server would call it.

// The demo provider's key is public by design: it plays test sessions only (see the demo game
// migration), and the session token is what authorizes a bet.
const PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';

/** The token's claims, read only for display and the rules (the platform verifies it); null if unreadable. */
export function claimsOf(jwt) {
  try {
    const payload = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
}

export class ApiProblem extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
  /** The call's fate is unknown: no answer, the platform's own failure, or a retryable refusal. */
  get unknown() {
    return this.status === 0 || this.status >= 500 || this.problem?.retryable === true;
  }
}

/** `call(method, path, body)` on the provider API at `api`: the answer, or an ApiProblem. */
export function providerApi(api) {
  return async function call(method, path, body) {
    let response;
    try {
      response = await fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${PROVIDER_KEY}`, ...(body && { 'content-type': 'application/json' }) },
        body: body && JSON.stringify(body),
      });
    } catch {
      throw new ApiProblem(0, null);
    }
    const answer = await response.json().catch(() => null);
    if (!response.ok) throw new ApiProblem(response.status, answer);
    return answer;
  };
}
