import { defineConfig } from "prisma/config";

// The Prisma CLI would download a native schema engine for every command, which cannot work
// offline. `prisma generate` never runs it; migrations go through server/db/migrate.ts instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
