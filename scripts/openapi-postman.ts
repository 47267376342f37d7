// npm run openapi:postman: writes openapi/postman.json from the OpenAPI description. Commit the result.
import { writeFile } from 'node:fs/promises';
import { generatePostmanCollection, postmanFile } from './openapi-artifacts.ts';

await writeFile(postmanFile, await generatePostmanCollection());
console.log(`wrote ${postmanFile}`);
