// A name resolver a test controls: it answers `answers[n]` the n-th time it is asked (the last one
// after that), and records each name asked, so a test sees how often a send resolved.
import type { Resolver } from '../../supabase/functions/_shared/public-url.ts';

export function answering(...answers: string[][]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(async (host: string) => answers[asked.push(host) - 1] ?? answers.at(-1)!, { asked });
}
