// postSigned under real Deno, as the functions run it: the posts given as JSON in the first argument,
// each with a resolver answering its made-up name from `answers`, one list per time it is asked.
// Prints, as JSON, each answer (status and body, or the failure) and the names the resolver was asked.
import process from 'node:process';
import { postSigned, type SignedPost } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { answering } from './answering-resolver.ts';

export interface DenoPost {
  post: Omit<SignedPost, 'resolve'>;
  answers: string[][];
}

export interface DenoAnswer {
  answer: { status: number; text: string | null } | { failure: string };
  asked: string[];
}

const posts: DenoPost[] = JSON.parse(process.argv[2]);
const results: DenoAnswer[] = [];
for (const { post, answers } of posts) {
  const resolve = answering(...answers);
  const answer = await postSigned({ ...post, resolve });
  results.push({ answer: 'failure' in answer ? { failure: answer.failure } : { status: answer.status, text: answer.text }, asked: resolve.asked });
}
console.log(JSON.stringify(results));
// Deno keeps a pending AbortSignal.timeout alive; nothing is left to wait for.
process.exit(0);
