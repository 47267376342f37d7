// npm run openapi:types: writes the SDK's and the function's api.types.ts from the OpenAPI
// description. Commit the result.
import { writeFile } from 'node:fs/promises';
import { apiTypesFiles, generateApiTypes } from './openapi-artifacts.ts';

const types = await generateApiTypes();
for (const file of apiTypesFiles) {
  await writeFile(file, types);
  console.log(`wrote ${file}`);
}
