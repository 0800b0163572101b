import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new migration from the schema; migrations are applied at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
});
