// npm run openapi:types: writes src/sdk/api.types.ts from the OpenAPI description. Commit the result.
import { writeFile } from 'node:fs/promises';
import { apiTypesFile, generateApiTypes } from './openapi-artifacts.ts';

await writeFile(apiTypesFile, await generateApiTypes());
console.log(`wrote ${apiTypesFile}`);
