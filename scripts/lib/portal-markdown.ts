// The developer portal's markdown build step (a markdown-it plugin the VitePress config installs):
// the portal's pages take their prose from the repository's own documents instead of copying it,
// and the errors page and the downloads table are generated, so none of them can drift.
//
// Directives, each alone on a line of a page under portal/:
//   <!--@import: ../docs/x.md-->                 the whole document (its front matter left out)
//   <!--@import: ../docs/x.md#a-heading-->       one section: that heading and everything under it
//       options after the path: level=N (the section's heading becomes level N, its subsections
//       follow), body (without its heading; a whole document without its title), code=Label (only
//       its first code block, labelled for a ::: code-group), text (without its code blocks)
//   <!--@problems: ../supabase/functions/v3/openapi.json-->   every ProblemCode, from the document
//   <!--@downloads: table|install|checksums-->   the downloads the portal build made (its manifest)
// A missing document or heading fails the build, naming the page and the directive. Links inside
// imported prose are rewritten to where the portal shows their target (a document's section is
// found on the page that imports it); a link to a document the portal does not carry becomes plain
// text, and the build says which. VitePress's own <!--@include: ...--> still works for whole files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';

export interface PortalMarkdownOptions {
  /** The repository's root: imported paths resolve inside it. */
  root: string;
  /** VitePress's source folder (portal/): every page in it is scanned for imports. */
  pagesDir: string;
  /** The manifest of the downloads the build made (null: the downloads table cannot be made). */
  downloadsManifest?: string | null;
  /** Where notes go (a link shown as text); console.warn by default. */
  note?: (message: string) => void;
}

/** The part of markdown-it this plugin uses. */
export interface MarkdownItLike {
  core: { ruler: { before(beforeName: string, ruleName: string, fn: (state: { src: string; env: Record<string, unknown> }) => void): void } };
}

export interface DownloadsManifest {
  built: BuiltDownload[];
  skipped: SkippedDownload[];
}

export interface BuiltDownload {
  id: string;
  title: string;
  version: string;
  file: string;
  bytes: number;
  sha256: string;
  /** How to use it, as shell lines (empty: no install step to show). */
  install: string[];
}

export interface SkippedDownload {
  id: string;
  title: string;
  version: string;
  reason: string;
}

// ---------------------------------------------------------------------------------------------
// Headings and slugs

const FENCE = /^\s*(`{3,}|~{3,})/;

/** Each line of `text` with whether it lies in a fenced code block (fence lines included). */
function fenced(lines: string[]): boolean[] {
  const inside: boolean[] = [];
  let open: string | null = null;
  for (const line of lines) {
    const fence = FENCE.exec(line)?.[1];
    if (open) {
      inside.push(true);
      if (fence && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
    } else if (fence) {
      inside.push(true);
      open = fence;
    } else {
      inside.push(false);
    }
  }
  return inside;
}

interface Heading {
  line: number;
  level: number;
  /** The text as rendered, without markdown: what both slugs are made from. */
  text: string;
}

const ATX = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/** Plain text of a heading's markdown: code spans, links and emphasis reduced to their text. */
function plain(markdown: string): string {
  return markdown
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|[^\w])[*_](.+?)[*_](?=[^\w]|$)/g, '$1$2')
    .replace(/<[^>]+>/g, '')
    .trim();
}

function headings(lines: string[]): Heading[] {
  const inside = fenced(lines);
  const found: Heading[] = [];
  lines.forEach((line, index) => {
    const match = !inside[index] && ATX.exec(line);
    if (match) found.push({ line: index, level: match[1]!.length, text: plain(match[2]!) });
  });
  return found;
}

/** GitHub's anchor for a heading: how the repository's documents link to each other. */
export function githubSlug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** VitePress's anchor for a heading (@mdit-vue/shared's slugify). */
export function vitepressSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

function stripFrontMatter(text: string): string {
  return text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
}

// ---------------------------------------------------------------------------------------------
// Imports

interface ImportDirective {
  /** The imported document, relative to the repository's root (posix). */
  file: string;
  /** GitHub anchor of the section, or null for the whole document. */
  section: string | null;
  level: number | null;
  body: boolean;
  code: string | null;
  text: boolean;
}

const DIRECTIVE = /^[ \t]*<!--\s*@(import|problems|downloads)\b:?\s*(.*?)\s*-->[ \t]*$/gm;

function parseImport(argument: string, page: string, root: string): ImportDirective {
  const [target = '', ...flags] = argument.split(/\s+/).filter(Boolean);
  const [path = '', section] = target.split('#');
  const file = posix.normalize(relative(root, resolve(dirname(page), path)).split(sep).join('/'));
  const directive: ImportDirective = { file, section: section || null, level: null, body: false, code: null, text: false };
  for (const flag of flags) {
    const [name, value] = flag.split('=');
    if (name === 'level' && /^[1-6]$/.test(value ?? '')) directive.level = Number(value);
    else if (name === 'body' && value === undefined) directive.body = true;
    else if (name === 'text' && value === undefined) directive.text = true;
    else if (name === 'code') directive.code = value ?? '';
    else throw new Error(`${page}: <!--@import: ${argument}--> has an unknown option "${flag}"`);
  }
  if (file.startsWith('..')) throw new Error(`${page}: <!--@import: ${argument}--> is outside the repository`);
  return directive;
}

/** A source heading that an import carries: its GitHub anchor, and whether it stays a heading. */
interface CarriedHeading {
  slug: string;
  kept: boolean;
}

interface Imported {
  text: string;
  headings: CarriedHeading[];
}

/** The lines of one import, before its links are rewritten. */
function importLines(directive: ImportDirective, root: string, page: string): Imported {
  const path = join(root, directive.file);
  if (!existsSync(path)) throw new Error(`${page}: imports ${directive.file}, which does not exist`);
  let lines = stripFrontMatter(readFileSync(path, 'utf8')).split(/\r?\n/);
  let found = headings(lines);
  let start = 0;
  let end = lines.length;
  if (directive.section) {
    const heading = found.find((h) => githubSlug(h.text) === directive.section);
    if (!heading) {
      throw new Error(`${page}: imports ${directive.file}#${directive.section}, but ${directive.file} has no such heading ` +
        `(it has: ${found.map((h) => githubSlug(h.text)).join(', ')})`);
    }
    start = heading.line;
    end = found.find((h) => h.line > heading.line && h.level <= heading.level)?.line ?? lines.length;
  }
  lines = lines.slice(start, end);
  found = headings(lines);
  const first = found[0];
  // The section's own heading (a whole document's title when it opens with one).
  const own = first && (directive.section ? first.line === 0 : first.level === 1 && lines.slice(0, first.line).every((l) => !l.trim())) ? first : null;
  const carried: CarriedHeading[] = found.map((h) => ({ slug: githubSlug(h.text), kept: !(directive.body && h === own) }));
  if (directive.body && own) lines.splice(own.line, 1);
  if (directive.level !== null && own) {
    const shift = directive.level - own.level;
    const inside = fenced(lines);
    lines = lines.map((line, index) => {
      const match = !inside[index] && /^(#{1,6})([ \t].*)$/.exec(line);
      return match ? `${'#'.repeat(Math.min(6, Math.max(1, match[1]!.length + shift)))}${match[2]}` : line;
    });
  }
  if (directive.code !== null) {
    const inside = fenced(lines);
    const opening = inside.indexOf(true);
    if (opening < 0) throw new Error(`${page}: imports the code of ${directive.file}#${directive.section ?? ''}, which has none`);
    let closing = opening;
    while (closing + 1 < lines.length && inside[closing + 1]) closing++;
    const block = lines.slice(opening, closing + 1);
    const indent = /^\s*/.exec(block[0]!)![0].length;
    const info = block[0]!.trim();
    const fence = /^(`{3,}|~{3,})/.exec(info)![1]!;
    block[0] = `${fence}${info.slice(fence.length)}${directive.code ? ` [${directive.code}]` : ''}`;
    return { text: block.map((line, i) => (i === 0 ? line : line.slice(Math.min(indent, /^\s*/.exec(line)![0].length)))).join('\n'), headings: [] };
  }
  if (directive.text) {
    const inside = fenced(lines);
    lines = lines.filter((_, index) => !inside[index]);
  }
  return { text: lines.join('\n').replace(/^\n+|\n+$/g, ''), headings: carried };
}

// ---------------------------------------------------------------------------------------------
// Where each document's sections are shown

interface Placement {
  route: string;
  /** The page's title (its first level-1 heading). */
  title: string;
  whole: boolean;
  /** Source anchor to the page's anchor, or null for the page itself. */
  anchors: Map<string, string | null>;
}

/** The portal's pages (paths relative to pagesDir, posix), .vitepress and public left out. */
function pages(pagesDir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(pagesDir, folder), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'public' || entry.name === 'node_modules') continue;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('');
  return found.sort();
}

function routeOf(page: string): string {
  const path = page.replace(/\.md$/, '');
  return path === 'index' ? '/' : path.endsWith('/index') ? `/${path.slice(0, -5)}` : `/${path}`;
}

/** Which page shows each imported document and section, and under which anchor. */
function placements(options: PortalMarkdownOptions): Map<string, Placement[]> {
  const byFile = new Map<string, Placement[]>();
  for (const page of pages(options.pagesDir)) {
    const file = join(options.pagesDir, page);
    const source = stripFrontMatter(readFileSync(file, 'utf8'));
    const used = new Map<string, number>();
    const anchorFor = (text: string) => {
      const slug = vitepressSlug(text);
      const count = used.get(slug) ?? 0;
      used.set(slug, count + 1);
      return count ? `${slug}-${count}` : slug;
    };
    let last = 0;
    let title = '';
    const placed: Placement[] = [];
    const seen = (found: Heading[]) => (title ||= found.find((h) => h.level === 1)?.text ?? '');
    const own = (text: string) => {
      const found = headings(text.split('\n'));
      seen(found);
      found.forEach((h) => anchorFor(h.text));
    };
    for (const match of source.matchAll(DIRECTIVE)) {
      own(source.slice(last, match.index));
      last = match.index! + match[0].length;
      if (match[1] !== 'import') continue;
      const directive = parseImport(match[2]!, file, options.root);
      const imported = importLines(directive, options.root, file);
      const shown = headings(imported.text.split('\n'));
      seen(shown);
      const anchors = new Map<string, string | null>();
      let next = 0;
      for (const carried of imported.headings) {
        if (!carried.kept) {
          anchors.set(carried.slug, null);
          continue;
        }
        const heading = shown[next++];
        if (heading && !anchors.has(carried.slug)) anchors.set(carried.slug, anchorFor(heading.text));
      }
      const placement = { route: routeOf(page), title: '', whole: directive.section === null && directive.code === null, anchors };
      placed.push(placement);
      byFile.set(directive.file, [...(byFile.get(directive.file) ?? []), placement]);
    }
    own(source.slice(last));
    for (const placement of placed) placement.title = title;
  }
  return byFile;
}

/** The portal link (and its page's title) for a repository document and anchor, or null when the portal does not show it. */
function portalLink(where: Map<string, Placement[]>, file: string, anchor: string | null): { href: string; title: string } | null {
  const placed = where.get(file) ?? [];
  if (anchor) {
    // A section imported on its own beats the same section inside a whole document.
    const hit = [...placed.filter((p) => !p.whole), ...placed.filter((p) => p.whole)].find((p) => p.anchors.has(anchor));
    if (!hit) return null;
    const target = hit.anchors.get(anchor);
    return { href: target ? `${hit.route}#${target}` : hit.route, title: hit.title };
  }
  // The page showing the whole document, else the one showing most of its sections.
  const count = (route: string) => placed.filter((p) => p.route === route).length;
  const page = placed.find((p) => p.whole) ?? [...placed].sort((a, b) => count(b.route) - count(a.route))[0];
  return page ? { href: page.route, title: page.title } : null;
}

const LINK = /(!?)\[([^\]\n]*)\]\(([^)\s]+)\)/g;

function rewriteLinks(text: string, source: string, where: Map<string, Placement[]>, note: (message: string) => void): string {
  const lines = text.split('\n');
  const inside = fenced(lines);
  return lines.map((line, index) => inside[index] ? line : line.replace(LINK, (whole, bang: string, label: string, target: string) => {
    if (bang || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return whole;
    const [path = '', anchor = ''] = target.split('#');
    const file = path ? posix.normalize(posix.join(posix.dirname(source), path)) : source;
    const link = portalLink(where, file, anchor || null);
    // A label that is the document's path ("docs/operations.md") names the portal's page instead.
    if (link) return `[${/^[\w./-]+\.md(#[\w-]*)?$/.test(label) && link.title ? link.title : label}](${link.href})`;
    note(`${file}${anchor ? `#${anchor}` : ''} (linked from ${source}) is not in the portal: the link is shown as text`);
    return label;
  })).join('\n');
}

// ---------------------------------------------------------------------------------------------
// The errors page, from the OpenAPI document

type Json = Record<string, any>;

interface CodeFacts {
  statuses: Set<number>;
  operations: Set<string>;
  descriptions: Set<string>;
  example: { title?: string; detail?: string; retryable?: boolean } | null;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
};

/** What a response's description says of one code: the clause naming it, if it has one. */
function clauseFor(description: string, code: string): string | null {
  const quoted = `\`${code}\``;
  const at = description.indexOf(quoted);
  if (at < 0) return null;
  const after = description.slice(at + quoted.length);
  // "`code`: what it means." or "`code` (retryable): what it means." or "`code` (what it means)"
  let match = /^( \(retryable\))?: (.*?)(?:\. |\.$|$)/.exec(after);
  if (match) return `${match[1] ? 'retryable: ' : ''}${match[2]}`;
  match = /^ \(((?:[^()]|\([^()]*\))*)\)/.exec(after);
  if (match) return match[1]!;
  // "what it means (`code`)" or "(`code`, more)"
  const before = description.slice(0, at);
  if (before.endsWith('(')) {
    const inner = /^, ([^)]*)\)/.exec(after)?.[1];
    const clause = before.slice(0, -1).split(/(?:\. |: |, or |, |; )/).pop()!.trim();
    return [clause, inner].filter(Boolean).join(': ') || null;
  }
  return null;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The errors reference: every code of the document's ProblemCode enum, grouped by status. */
export function problemsMarkdown(document: Json): string {
  const refs = (value: Json | undefined): Json | undefined => {
    let node = value;
    for (let hops = 0; node && typeof node.$ref === 'string' && hops < 20; hops++) {
      node = (node.$ref as string).slice(2).split('/').reduce((at: Json | undefined, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    }
    return node;
  };
  const codes: string[] = refs(document.components?.schemas?.ProblemCode)?.enum ?? [];
  if (!codes.length) throw new Error('the OpenAPI document has no components.schemas.ProblemCode enum');
  const facts = new Map<string, CodeFacts>(codes.map((c) => [c, { statuses: new Set(), operations: new Set(), descriptions: new Set(), example: null }]));
  const codesOf = (schema: Json | undefined): string[] => {
    const found: string[] = [];
    const visit = (node: Json | undefined) => {
      const resolved = refs(node);
      if (!resolved) return;
      const code = resolved.properties?.code;
      if (code && !code.$ref) found.push(...(code.enum ?? []), ...(code.const ? [code.const] : []));
      for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) visit(part);
    };
    visit(schema);
    return found;
  };
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation?.responses) continue;
      for (const [status, reference] of Object.entries<Json>(operation.responses)) {
        const response = refs(reference);
        const media = response?.content?.['application/problem+json'];
        if (!media) continue;
        const examples = Object.values<Json>(media.examples ?? {}).map((e) => refs(e)?.value).filter(Boolean);
        for (const code of codesOf(media.schema)) {
          const fact = facts.get(code);
          if (!fact) throw new Error(`${method.toUpperCase()} ${path} answers ${status} with code ${code}, which ProblemCode does not list`);
          fact.statuses.add(Number(status));
          fact.operations.add(`${method.toUpperCase()} ${path}`);
          if (response.description) fact.descriptions.add(response.description);
          fact.example ??= examples.find((e) => e.code === code) ?? null;
        }
      }
    }
  }
  const operationCount = Object.values<Json>(document.paths ?? {}).reduce((n, item) => n + methods.filter((m) => item[m]).length, 0);
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = Math.min(...facts.get(code)!.statuses, 999);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: string[] = [
    `The ${codes.length} codes of the OpenAPI document's \`ProblemCode\`, by HTTP status, with what each response says of them. ` +
    `Generated from \`openapi.json\` (API ${document.info?.version ?? ''}) when the portal is built.`,
    '',
  ];
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    out.push(status === 999 ? '## Not returned by any documented operation' : `## ${status} ${REASONS[status] ?? ''}`.trimEnd(), '');
    out.push('| code | retryable | what it means | returned by |', '|---|---|---|---|');
    const descriptions = new Set<string>();
    for (const code of byStatus.get(status)!) {
      const fact = facts.get(code)!;
      const clauses = [...fact.descriptions].map((d) => clauseFor(d, code)).filter((c): c is string => !!c);
      const retryable = fact.example?.retryable ?? clauses.some((c) => /\bretryable\b/.test(c) && !/not retryable/.test(c));
      // An example's title and detail; else what the response says of the code; else the
      // response's opening words (a list of codes: "Refused, and nothing was written: ...").
      const opening = [...fact.descriptions].map((d) => /^(.*?)(?::|\. |\.$)/.exec(d)?.[1]).find(Boolean) ?? '';
      const meaning = fact.example?.title
        ? `**${fact.example.title}.** ${fact.example.detail ?? ''}`.trim()
        : (clauses[0]?.replace(/(^|: )retryable: /, '$1') || opening).replace(/^./, (c) => c.toUpperCase());
      const operations = [...fact.operations];
      const by = operations.length > 6 ? `${operations.length} of the ${operationCount} operations`
        : operations.map((o) => `\`${o}\``).join('<br>');
      const other = [...fact.statuses].filter((s) => s !== status);
      out.push(`| <span id="${code}"></span>\`${code}\`${other.length ? ` (also ${other.join(', ')})` : ''} | ${retryable ? 'yes' : 'no'} | ${escapeCell(meaning)} | ${by} |`);
      fact.descriptions.forEach((d) => descriptions.add(d));
    }
    if (descriptions.size) {
      out.push('', '::: details What the responses say', '');
      for (const description of descriptions) out.push(`- ${description.replace(/\n+/g, ' ')}`);
      out.push('', ':::');
    }
    out.push('');
  }
  const fieldCodes: string[] = refs(document.components?.schemas?.FieldError)?.properties?.code?.enum ?? [];
  if (fieldCodes.length) {
    out.push('## Field codes', '', 'The `code` of each entry of `errors` (the `FieldError` schema): one of ' +
      `${fieldCodes.map((c) => `\`${c}\``).join(', ')}.`, '');
  }
  return out.join('\n');
}

/** Each ProblemCode of the document (for the build's redirects and the tests). */
export function problemCodes(document: Json): string[] {
  return document.components?.schemas?.ProblemCode?.enum ?? [];
}

// ---------------------------------------------------------------------------------------------
// The downloads table

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

export type DownloadsPart = 'table' | 'install' | 'checksums';

/** One part of the downloads page: the table (and what was left out), how to install, the checksums. */
export function downloadsMarkdown(manifest: DownloadsManifest, part: DownloadsPart): string {
  const out: string[] = [];
  if (part === 'table') {
    out.push('| download | version | file | size |', '|---|---|---|---|');
    // Plain anchors with `download`: the browser saves the file (VitePress's router leaves them alone).
    for (const d of manifest.built) {
      out.push(`| ${d.title} | ${d.version} | <a href="/downloads/${d.file}" download>${d.file}</a> | ${size(d.bytes).replace(' ', '&nbsp;')} |`);
    }
    out.push('');
    for (const s of manifest.skipped) {
      out.push('::: danger Not in this build', `The ${s.title} ${s.version}: ${s.reason}. Rebuild the portal where it is installed to offer it.`, ':::', '');
    }
  } else if (part === 'install') {
    const installs = manifest.built.filter((d) => d.install.length);
    out.push('::: code-group');
    for (const d of installs) out.push(`\`\`\`sh [${d.title.replace(/ SDK.*$/, '')}]`, ...d.install, '```');
    out.push(':::', '');
  } else {
    out.push('```text');
    for (const d of manifest.built) out.push(`${d.sha256}  ${d.file}`);
    out.push('```', '');
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The plugin

export function portalMarkdown(md: MarkdownItLike, options: PortalMarkdownOptions): void {
  const root = resolve(options.root);
  const pagesDir = resolve(options.pagesDir);
  const noted = new Set<string>();
  const note = (message: string) => {
    if (noted.has(message)) return;
    noted.add(message);
    (options.note ?? ((m: string) => console.warn(`portal: ${m}`)))(message);
  };
  let where: Map<string, Placement[]> | null = null;
  md.core.ruler.before('block', 'cgs_portal_directives', (state) => {
    if (!state.src.includes('<!--')) return;
    const page = String(state.env.realPath ?? state.env.path ?? join(pagesDir, 'index.md'));
    state.src = state.src.replace(DIRECTIVE, (_, kind: string, argument: string) => {
      if (kind === 'problems') {
        const path = resolve(dirname(page), argument);
        if (!existsSync(path)) throw new Error(`${page}: <!--@problems: ${argument}--> names no file`);
        return problemsMarkdown(JSON.parse(readFileSync(path, 'utf8')));
      }
      if (kind === 'downloads') {
        const manifest = options.downloadsManifest;
        if (!manifest || !existsSync(manifest)) {
          throw new Error(`${page}: the downloads table needs the files the portal build makes: build with npm run portal:build`);
        }
        const part = argument || 'table';
        if (!['table', 'install', 'checksums'].includes(part)) throw new Error(`${page}: <!--@downloads: ${argument}--> is not table, install or checksums`);
        return downloadsMarkdown(JSON.parse(readFileSync(manifest, 'utf8')), part as DownloadsPart);
      }
      where ??= placements({ ...options, root, pagesDir });
      const directive = parseImport(argument, page, root);
      const imported = importLines(directive, root, page);
      const text = directive.code !== null ? imported.text : rewriteLinks(imported.text, directive.file, where, note);
      return `\n${text}\n`;
    });
  });
}
