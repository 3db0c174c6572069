// `node scripts/check-schemas.mjs`: fails when a shipped schema is not what the registries
// (built to dist/) generate — a schema edited by hand, or a registry change committed
// without the build's regenerated schemas/. `npm run build` writes them (scripts/schemas.mjs).
import { generatedSchemas } from './schemas.mjs';

const stale = (await generatedSchemas()).filter((s) => !s.same).map((s) => `schemas/${s.name}.schema.json`);
if (stale.length > 0) {
  console.error(`${stale.join(', ')} differ from the registries: run npm run build and commit schemas/`);
  process.exit(1);
}
