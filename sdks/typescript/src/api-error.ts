// Every non-2xx answer becomes an ApiError carrying the status and the problem+json body, so a
// caller branches on `error.code` (stable) rather than on message text.
import type { Problem, ProblemCode } from './types.ts';

const PROBLEM_JSON = /^application\/problem\+json\b/i;

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The problem body; null when the answer was not problem+json (a proxy's error page, say). */
    readonly problem: Problem | null,
    readonly headers: Headers,
  ) {
    super(problem ? `${status} ${problem.code}: ${problem.detail}` : `HTTP ${status}`);
  }

  /** The problem's stable code, e.g. `validation_failed`. */
  get code(): ProblemCode | undefined {
    return this.problem?.code;
  }

  /** Whether the same request sent again may succeed, as the API says (false when it said nothing). */
  get retryable(): boolean {
    return this.problem?.retryable ?? false;
  }

  static async fromResponse(response: Response): Promise<ApiError> {
    let problem: Problem | null = null;
    if (PROBLEM_JSON.test(response.headers.get('content-type') ?? '')) {
      problem = (await response.json().catch(() => null)) as Problem | null;
    } else {
      await response.body?.cancel();
    }
    return new ApiError(response.status, problem, response.headers);
  }
}
