#!/usr/bin/env bash
# `npm test`: the whole suite. Typecheck, unit tests (beside the code), a production build, then
# Playwright against real servers: the embedded database, and PostgreSQL + Redis (see
# playwright.config.ts). SKIP_POSTGRES=1 leaves the PostgreSQL/Redis half out (never in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
if [ "${CI:-}" = "true" ] && [ "${SKIP_POSTGRES:-}" = "1" ]; then
  echo "SKIP_POSTGRES is not allowed in CI" >&2
  exit 1
fi
bash scripts/ensure-chromium.sh
echo "== typecheck"
npx tsc --noEmit
echo "== lint"
npx eslint .
echo "== unit tests"
npm run -s test:unit
echo "== build"
npx next build
echo "== end-to-end tests (Playwright)"
npx playwright test "$@"
