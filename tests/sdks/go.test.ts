// The Go SDK (sdks/go) against the v3 function under Deno: `go vet` and gofmt clean, its own tests
// (unit, conformance to the OpenAPI document, and integration through the CGS_* environment, which
// must run, not skip), and a scratch module that requires github.com/casino-gaming/cgs-go/v2
// v2.4.0 through a replace directive, built offline and run against the function. Offline means
// GOPROXY=off and the standard library only. The build cache is the user's, or one temporary
// folder for this file when HOME cannot be written; either way the three runs share it.
import { execFile } from 'node:child_process';
import { access, constants, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { describeWithTool, sdkEnvironment } from './harness.ts';

const env = sdkEnvironment('go');
const sdk = join(paths.root, 'sdks', 'go');
let scratch: string;
let goEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cgs-sdk-go-'));
  // Go keeps its build cache and module cache under HOME unless told otherwise.
  const homeWritable = !!process.env.HOME && await access(homedir(), constants.W_OK).then(() => true, () => false);
  goEnv = {
    ...process.env,
    ...env,
    GOFLAGS: '-mod=mod',
    GOTOOLCHAIN: 'local',
    GOPROXY: 'off',
    GOSUMDB: 'off',
    ...(homeWritable || process.env.GOCACHE ? {} : { GOCACHE: join(scratch, 'gocache') }),
    ...(homeWritable || process.env.GOPATH ? {} : { GOPATH: join(scratch, 'gopath') }),
  };
});
afterAll(() => scratch && rm(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  output: string;
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: goEnv, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `$ ${command} ${args.join(' ')}\n${stdout}${stderr}` });
    });
  });
}

const packagedApp = `package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/webhook"
)

func main() {
	ctx := context.Background()
	client := cgs.NewClient(os.Getenv("CGS_LIVE_KEY"), cgs.WithBaseURL(os.Getenv("CGS_API_URL")))
	session, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{
		PlayerID: "packaged-1", GameID: "pragmatic-play:vs20olympgate", Currency: "EUR",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("version", cgs.Version)
	fmt.Println("session", session.ID, session.Status)
	_, err = client.Sessions.Create(ctx, &cgs.SessionCreateParams{
		PlayerID: "packaged-1", GameID: "pragmatic-play:vs20olympgate", Currency: "XXX",
	})
	var apiErr *cgs.Error
	if errors.As(err, &apiErr) {
		fmt.Println("error", apiErr.Status, apiErr.Code)
	}
	fmt.Println("tolerance", webhook.DefaultTolerance)
}
`;

await describeWithTool('go', 'apt-get install golang-go', 'the Go SDK', () => {
  it('is gofmt-formatted and go vet clean', async () => {
    const fmt = await run('gofmt', ['-l', '.'], sdk);
    expect(fmt.code, fmt.output).toBe(0);
    expect(fmt.output.split('\n').slice(1).join('').trim(), `gofmt would change:\n${fmt.output}`).toBe('');
    const vet = await run('go', ['vet', './...'], sdk);
    expect(vet.code, vet.output).toBe(0);
  }, 180_000);

  it('passes its own tests: unit, conformance to the OpenAPI document, and integration against the function', async () => {
    const test = await run('go', ['test', '-count=1', '-v', './...'], sdk);
    expect(test.code, test.output).toBe(0);
    // Against the function, not skipped for want of the environment.
    expect(test.output, test.output).toMatch(/--- PASS: TestIntegration/);
    expect(test.output, test.output).not.toMatch(/--- SKIP/);
  }, 180_000);

  it('installs as github.com/casino-gaming/cgs-go/v2 v2.4.0 (replace), builds offline and creates a session', async () => {
    const app = join(scratch, 'operator-app');
    await mkdir(app);
    await writeFile(join(app, 'go.mod'), [
      'module example.com/operator-app',
      '',
      'go 1.19',
      '',
      'require github.com/casino-gaming/cgs-go/v2 v2.4.0',
      '',
      `replace github.com/casino-gaming/cgs-go/v2 => ${sdk}`,
      '',
    ].join('\n'));
    await writeFile(join(app, 'main.go'), packagedApp);
    const build = await run('go', ['build', '-o', 'operator-app', '.'], app);
    expect(build.code, build.output).toBe(0);
    const used = await run(join(app, 'operator-app'), [], app);
    expect(used.code, used.output).toBe(0);
    expect(used.output).toMatch(/^version 2\.4\.0$/m);
    expect(used.output).toMatch(/^session [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} created$/m);
    expect(used.output).toMatch(/^error 422 reference_unavailable$/m);
  }, 180_000);
});
