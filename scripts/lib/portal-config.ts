// The developer portal's VitePress configuration (portal/.vitepress/config.ts hands it over): its
// navigation, local search, and the markdown build step (scripts/lib/portal-markdown.ts). What the
// build stages beside the pages (the API reference, the OpenAPI document, the downloads) is in the
// folder CGS_PORTAL_STAGE names, which npm run portal:build (scripts/lib/portal-build.ts) sets.
import { join } from 'node:path';
import { defineConfig, type UserConfig } from 'vitepress';
import { portalMarkdown } from './portal-markdown.ts';

export const PORTAL_TITLE = 'CGS Developer Portal';

/** Where the build stages what it adds: { public/ (copied to the site as it is), downloads.json }. */
export const STAGE_ENV = 'CGS_PORTAL_STAGE';

export function portalConfig({ root, pagesDir }: { root: string; pagesDir: string }): UserConfig {
  const stage = process.env[STAGE_ENV];
  return defineConfig({
    title: PORTAL_TITLE,
    titleTemplate: ':title · CGS Developer Portal',
    description: 'Integrate the Casino Gaming Integration Service: sessions, catalogue, rounds, wallets, webhooks, SDKs and the API reference.',
    lang: 'en',
    cleanUrls: false, // page.html links: any static host serves them without rewrites
    lastUpdated: false,
    head: [
      ['link', { rel: 'icon', type: 'image/svg+xml', href: '/logo.svg' }],
      ['meta', { name: 'theme-color', content: '#0f766e' }],
    ],
    themeConfig: {
      logo: '/logo.svg',
      siteTitle: 'CGS Developers',
      nav: [
        { text: 'Guide', link: '/quickstart', activeMatch: '^/(quickstart|authentication|environments|sandbox|sessions|catalogue|rounds|reports|free-rounds|sportsbook|webhooks|compliance|idempotency|errors|operations|hosting)' },
        { text: 'API reference', link: '/api-reference.html', target: '_self' },
        { text: 'SDKs', link: '/sdks/typescript', activeMatch: '^/sdks/' },
        { text: 'Downloads', link: '/downloads' },
        { text: 'Changelog', link: '/changelog' },
      ],
      sidebar: [
        {
          text: 'Start here',
          items: [
            { text: 'Quickstart', link: '/quickstart' },
            { text: 'Authentication and keys', link: '/authentication' },
            { text: 'Environments and test mode', link: '/environments' },
            { text: 'Sandbox and test players', link: '/sandbox' },
          ],
        },
        {
          text: 'Integrate',
          items: [
            { text: 'Sessions', link: '/sessions' },
            { text: 'Catalogue', link: '/catalogue' },
            { text: 'Rounds and wallet modes', link: '/rounds' },
            { text: 'Reports and reconciliation', link: '/reports' },
            { text: 'Give free rounds', link: '/free-rounds' },
            { text: 'Integrate a sportsbook', link: '/sportsbook' },
            { text: 'Webhooks', link: '/webhooks' },
            { text: 'Compliance', link: '/compliance' },
            { text: 'Idempotency', link: '/idempotency' },
            { text: 'Errors', link: '/errors' },
          ],
        },
        {
          text: 'Reference',
          items: [
            { text: 'API reference', link: '/api-reference.html', target: '_self' },
            { text: 'TypeScript SDK', link: '/sdks/typescript' },
            { text: 'Go SDK', link: '/sdks/go' },
            { text: 'Python SDK', link: '/sdks/python' },
            { text: 'Downloads', link: '/downloads' },
            { text: 'Changelog', link: '/changelog' },
          ],
        },
        {
          text: 'Run it',
          items: [
            { text: 'Running the service', link: '/operations' },
            { text: 'Hosting this portal', link: '/hosting' },
          ],
        },
      ],
      search: { provider: 'local' },
      outline: { level: [2, 3], label: 'On this page' },
      docFooter: { prev: 'Previous', next: 'Next' },
      footer: { message: 'Casino Gaming Integration Service · operator API v3' },
    },
    markdown: {
      config(md) {
        portalMarkdown(md, { root, pagesDir, downloadsManifest: stage ? join(stage, 'downloads.json') : null });
      },
    },
    vite: {
      publicDir: stage ? join(stage, 'public') : join(pagesDir, 'public'),
      build: { chunkSizeWarningLimit: 2048 },
    },
  });
}
