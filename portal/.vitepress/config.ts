// VitePress reads this file; the configuration itself is scripts/lib/portal-config.ts (type-checked
// with the rest of the project). Build with `npm run portal:build`.
import { fileURLToPath } from 'node:url';
import { portalConfig } from '../../scripts/lib/portal-config.ts';

export default portalConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  pagesDir: fileURLToPath(new URL('../', import.meta.url)),
});
