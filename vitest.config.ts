import path from "node:path";
import { defineConfig } from "vitest/config";

// Projects: `unit` is pure (no I/O); `db` talks to a real database — embedded PGlite by default, or
// the PostgreSQL server named by TEST_DATABASE_URL (a fresh database per test file); `app` runs the
// built app over HTTP.
/** Projects whose files may run at the same time: one group, run first, two files at once. */
const SIDE_BY_SIDE = { maxWorkers: 2, sequence: { groupOrder: 0 } } as const;

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Keeps what the code under test logs out of a passing run; printed for a failing test, or all
    // of it as it comes with TEST_SHOW_LOGS=1 (tests/helpers/captured-logs.ts).
    setupFiles: ["tests/helpers/setup-logs.ts"],
    projects: [
      // Files of `unit` and `db` share nothing (each db file has a database of its own): they run
      // side by side, two at a time (vitest's default is one fewer than the cores: one here), before
      // the files of `app`, which share one running app and so run one after another.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], ...SIDE_BY_SIDE } },
      {
        extends: true,
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...SIDE_BY_SIDE,
        },
      },
      {
        // The built app as a real process over HTTP; may run `next build` first.
        extends: true,
        test: {
          name: "app",
          include: ["tests/app/**/*.test.ts"],
          // One running app for the whole project (its organizations, credits, rate limits, log):
          // its files run one after another, whatever the machine's cores.
          fileParallelism: false,
          globalSetup: ["tests/app/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        // Needs the Redis of TEST_REDIS_URL (CI starts one): rate limits shared across instances.
        extends: true,
        test: { name: "redis", include: ["tests/redis/**/*.test.ts"], testTimeout: 30_000 },
      },
      {
        // Faults under load: a private PostgreSQL server stopped and restarted, the app killed.
        // Needs PostgreSQL's server binaries; CI runs it (`npx vitest run --project faults`).
        extends: true,
        test: { name: "faults", include: ["tests/faults/**/*.test.ts"], testTimeout: 300_000, hookTimeout: 300_000 },
      },
      {
        // Safe at any size: generated markets of 1,000 products through every surface whose work grows
        // with a market, each request's hold on the app's event loop measured, and floods beside
        // another organization's calls. Times answers under load, so CI runs it alone (`npm run test:size`).
        extends: true,
        test: { name: "size", include: ["tests/size/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 400_000 },
      },
      {
        // Two app instances on a private PostgreSQL (and TEST_REDIS_URL's Redis when set): one
        // organization's held row or burst against another's calls. CI runs it.
        extends: true,
        test: {
          name: "isolation",
          include: ["tests/isolation/**/*.test.ts"],
          testTimeout: 300_000,
          hookTimeout: 400_000,
        },
      },
      {
        // Real Chromium (Debian's, at /usr/bin/chromium) against the running app; `npm run test:browser`.
        extends: true,
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          fileParallelism: false,
          globalSetup: ["tests/app/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 300_000,
          // A poll waits out a chain of redirects or a streamed page on a loaded CI machine;
          // the default second is too short there (the OAuth test once timed out on its callback).
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
