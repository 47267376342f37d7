// The project runs on a maintained Node.js LTS, says so in package.json "engines", and `npm ci`
// prints no engine warning: every locked package accepts every Node the project admits, so no
// dependency can be installed onto a runtime it refuses.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';

// The release lines in maintenance or active LTS (nodejs.org's release schedule); a line leaves this
// list, and the project's range, on its end-of-life date.
const MAINTAINED_LTS = [22, 24, 26];

type Lock = { packages: Record<string, { engines?: { node?: string } | string[] }> };
const pkg = JSON.parse(await readFile(`${paths.root}package.json`, 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(await readFile(`${paths.root}package-lock.json`, 'utf8')) as Lock;
const engines = pkg.engines.node;

describe('Node.js', () => {
  it('engines admits the maintained LTS lines and no other line up to the newest, and .nvmrc names one', async () => {
    for (let major = 18; major <= Math.max(...MAINTAINED_LTS); major++) {
      expect(semver.intersects(engines, `${major}.x`), `Node ${major}`).toBe(MAINTAINED_LTS.includes(major));
    }
    expect(lock.packages[''].engines).toEqual(pkg.engines);
    expect(MAINTAINED_LTS).toContain(Number((await readFile(`${paths.root}.nvmrc`, 'utf8')).trim()));
  });

  it('every locked package accepts every Node the project admits', () => {
    const narrower = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      return path && range && !semver.subset(engines, range) ? [`${path.slice('node_modules/'.length)}: ${range}`] : [];
    });
    expect(narrower).toEqual([]);
  });

  it('runs on a Node engines admits, and npm ci prints no engine warning', async () => {
    expect(semver.satisfies(process.versions.node, engines), `Node ${process.versions.node} against ${engines}`).toBe(true);
    const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--dry-run', '--offline'], {
      cwd: paths.root,
      env: { ...process.env, npm_config_loglevel: 'warn', npm_config_update_notifier: 'false' },
    });
    expect(`${stdout}\n${stderr}`).not.toMatch(/EBADENGINE|notsup/i);
  }, 120_000);
});
