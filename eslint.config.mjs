import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "bench/next-bare/.next/**", "node_modules/**", "server/db/generated/**", "data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  {
    rules: {
      // Unused arguments named with a leading underscore are deliberate (interface conformance).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
