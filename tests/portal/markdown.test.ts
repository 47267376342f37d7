// The portal's markdown build step (scripts/lib/portal-markdown.ts) on a small repository of its
// own: imports of documents and sections, links rewritten to where the portal shows their target
// (or shown as text), a missing document or heading failing the build, and the errors reference
// generated from an OpenAPI document.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubSlug, type MarkdownItLike, portalMarkdown, problemsMarkdown, vitepressSlug } from '../../scripts/lib/portal-markdown.ts';

let root: string;
const notes: string[] = [];

async function files(tree: Record<string, string>) {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** What the plugin makes of a page's source, as markdown-it would parse it. */
function expand(page: string, src: string): string {
  let rule: ((state: { src: string; env: Record<string, unknown> }) => void) | null = null;
  const md: MarkdownItLike = { core: { ruler: { before: (_before, _name, fn) => (rule = fn) } } };
  portalMarkdown(md, { root, pagesDir: join(root, 'portal'), note: (m) => notes.push(m) });
  const state = { src, env: { path: join(root, 'portal', page) } };
  rule!(state);
  return state.src;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cgs-portal-markdown-'));
  await files({
    'docs/guide.md': [
      '# The guide', '', 'Intro, see [keys](other.md#api-keys) and [below](#rules-and-more).', '',
      '## Rules and more', '', 'Rule one. [Internal](internal.md).', '', '```sh', '## not a heading', '```', '',
      '### 401 before 400', '', 'Keys first.', '', '## Later', '', 'Later text.', '',
    ].join('\n'),
    'docs/other.md': '# Other\n\n## API keys\n\nKeys.\n\n## Unused\n\nNothing.\n',
    'docs/internal.md': '# Internal\n',
    'portal/guide.md': '<!--@import: ../docs/guide.md-->\n',
    'portal/keys.md': '# Keys\n\n<!--@import: ../docs/other.md#api-keys level=2-->\n',
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('imports', () => {
  it('bring a whole document, its links pointing where the portal shows their targets', () => {
    const page = expand('guide.md', '<!--@import: ../docs/guide.md-->\n');
    expect(page).toContain('# The guide');
    expect(page).toContain('see [keys](/keys#api-keys) and [below](/guide#rules-and-more).');
    expect(page).toContain('## not a heading'); // code stays as it is
    // A document the portal does not carry: its link becomes text, and the build says so.
    expect(page).toContain('Rule one. Internal.');
    expect(notes.some((n) => n.startsWith('docs/internal.md (linked from docs/guide.md) is not in the portal'))).toBe(true);
  });

  it('bring one section, re-levelled, or its body, or its first code block', () => {
    expect(expand('x.md', '<!--@import: ../docs/guide.md#rules-and-more level=3-->').trim())
      .toBe(['### Rules and more', '', 'Rule one. Internal.', '', '```sh', '## not a heading', '```', '', '#### 401 before 400', '', 'Keys first.'].join('\n'));
    expect(expand('x.md', '<!--@import: ../docs/other.md#api-keys body-->').trim()).toBe('Keys.');
    expect(expand('x.md', '<!--@import: ../docs/guide.md#rules-and-more code=Shell-->').trim()).toBe('```sh [Shell]\n## not a heading\n```');
    expect(expand('x.md', '<!--@import: ../docs/guide.md#rules-and-more body text-->').replace(/\n+/g, '\n').trim())
      .toBe('Rule one. Internal.\n### 401 before 400\nKeys first.');
  });

  it('fail on a document or a heading that does not exist, naming them', () => {
    expect(() => expand('x.md', '<!--@import: ../docs/gone.md-->')).toThrow(/imports docs\/gone\.md, which does not exist/);
    expect(() => expand('x.md', '<!--@import: ../docs/other.md#renamed-->')).toThrow(/docs\/other\.md has no such heading/);
    expect(() => expand('x.md', '<!--@import: ../docs/other.md levels=2-->')).toThrow(/unknown option "levels=2"/);
  });

  it('make anchors the way GitHub and VitePress do', () => {
    expect(githubSlug('401 before 400')).toBe('401-before-400');
    expect(vitepressSlug('401 before 400')).toBe('_401-before-400');
    expect(githubSlug('Moving to supabase start or a hosted project')).toBe('moving-to-supabase-start-or-a-hosted-project');
    expect(vitepressSlug('The rules (one database transaction per call)')).toBe('the-rules-one-database-transaction-per-call');
  });
});

describe('the errors reference', () => {
  const problem = (codes: string[]) => ({
    description: 'Refused: `a_code` (what a means), or `b_code` (retryable): b happened.',
    content: { 'application/problem+json': { schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { properties: { code: { enum: codes } } }] } } },
  });
  const document = (codes: string[]) => ({
    info: { version: '1.0.0' },
    components: { schemas: { ProblemCode: { enum: ['a_code', 'b_code', 'c_code'] }, Problem: { type: 'object' } } },
    paths: { '/v3/things': { get: { responses: { 422: problem(codes) } } } },
  });

  it('lists every code of ProblemCode, with what the responses say, and those no operation returns', () => {
    const markdown = problemsMarkdown(document(['a_code', 'b_code']));
    expect(markdown).toContain('| <span id="a_code"></span>`a_code` | no | What a means | `GET /v3/things` |');
    expect(markdown).toContain('| <span id="b_code"></span>`b_code` | yes | B happened | `GET /v3/things` |');
    expect(markdown).toContain('## Not returned by any documented operation');
    expect(markdown).toContain('<span id="c_code"></span>');
  });

  it('fails on a response code that ProblemCode does not list', () => {
    expect(() => problemsMarkdown(document(['a_code', 'z_code']))).toThrow(/code z_code, which ProblemCode does not list/);
  });
});
