// The project's vitest configuration, less the tests whose code under test runs in another process
// (real Deno, and the browser and SDK suites that serve the function under it): Stryker measures
// which test reached which mutant inside the vitest worker only, so those would never be chosen
// for a mutant (a test that also calls the code in-process would be, and its Deno half would run
// the code unmutated), and they would cost the initial run minutes. The in-process tests
// (app.request()) drive the same handlers.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';
import { outOfProcessTests } from './out-of-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export default mergeConfig(base, defineConfig({
  root,
  test: { exclude: [...configDefaults.exclude, ...outOfProcessTests(root)] },
}));
