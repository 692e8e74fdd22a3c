/** `ops catalog …`: validate, preview, publish, archive, restore and list catalogue definitions. */

import {
  CatalogFileError,
  checkGeographies,
  evidenceDateIssues,
  formatPath,
  marketIssues,
  missingEvidenceIssues,
} from "../1-domain/definition-checks";
import { changes } from "../2-comparisons/release-comparison";
import { scoreMarket } from "../2-scoring/engine";
import { loadDefinitionFile } from "../3-catalog/load";
import { previewMarket } from "../3-catalog/preview";
import {
  archiveMarket,
  CatalogStateError,
  listMarkets,
  type PublishOptions,
  publishGeographies,
  publishMarket,
  readControls,
  readGeographies,
  restoreMarket,
} from "../3-catalog/store";
import { type CliContext, parse, UsageError, withDatabase } from "./io";
import { previewCountry, previewLines } from "./preview";

export const CATALOG_USAGE = `ops catalog <command>
  validate FILE [--require-evidence]      check a definition file (YAML or JSON); writes nothing.
                                          Values without evidence are warnings per indicator,
                                          errors with --require-evidence
  preview FILE [--country CC] [--json]    what publishing a market file would change against its
                                          latest release, under CC (default US, else the first
                                          country both releases have); writes nothing
  publish FILE --notes TEXT [--material] [--draws N]
                                          validate, score and store a new immutable release, with
                                          its sensitivity analysis of N draws (default 2000,
                                          100 to 100000); a geographies file replaces the controls
                                          and geographies
  archive MARKET_ID                       hide a market everywhere; its releases are kept
  restore MARKET_ID                       list an archived market again
  list [--json]                           one line per market: id, status, latest release, products`;

export async function catalogCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case "validate":
      return validate(rest, ctx);
    case "preview":
      return preview(rest, ctx);
    case "publish":
      return publish(rest, ctx);
    case "archive":
    case "restore":
      return setStatus(command, rest, ctx);
    case "list":
      return list(rest, ctx);
    default:
      throw new UsageError(command ? `unknown command "catalog ${command}"` : "missing command");
  }
}

async function validate(args: string[], ctx: CliContext): Promise<number> {
  const { positionals, values } = parse(args, { "require-evidence": { type: "boolean", default: false } }, 1);
  const file = positionals[0] as string;
  const definition = await loadDefinitionFile(file);
  if (definition.kind === "geographies") {
    checkGeographies(file, definition);
    ctx.io.out(`${file}: OK — ${definition.controls.length} controls, ${definition.geographies.length} geographies`);
    return 0;
  }
  // A market is checked against the live controls catalogue and scored as a dry run; its
  // evidence is dated against today, the day a publish now would carry.
  const { controls, geographies } = await withDatabase(ctx, async ({ db }) => ({
    controls: await readControls(db),
    geographies: await readGeographies(db),
  }));
  const missing = missingEvidenceIssues(definition);
  const issues = [...marketIssues(definition, controls), ...evidenceDateIssues(definition, ctx.now())];
  if (values["require-evidence"]) issues.push(...missing);
  if (issues.length > 0) throw new CatalogFileError(file, issues);
  const scored = scoreMarket(definition, geographies);
  for (const issue of missing) ctx.io.err(`warning: ${file}: ${formatPath(issue.path)}: ${issue.message}`);
  const offerings = definition.products.reduce((n, p) => n + p.offerings.length, 0);
  ctx.io.out(
    `${file}: OK — market ${definition.marketId}: ${definition.products.length} products, ` +
      `${offerings} offerings, ${definition.indicators.length} indicators, scored for ${scored.countries.length} geographies`,
  );
  return 0;
}

/** Work above this many product × indicator values says where it is, on stderr. */
export const PROGRESS_THRESHOLD = 5_000;

/**
 * Progress of a long publish, on stderr so stdout stays the result: a line per stage and one at
 * most every 10% (a large market takes seconds). Small markets publish silently.
 */
function progressReporter(ctx: CliContext, size: number): PublishOptions["progress"] {
  if (size < PROGRESS_THRESHOLD) return undefined;
  const shown = new Map<string, number>();
  return (stage, done, total) => {
    const tenth = total === 0 ? 10 : Math.floor((10 * done) / total);
    if (shown.get(stage) === tenth) return;
    shown.set(stage, tenth);
    ctx.io.err(stage === "writing" ? "writing the release…" : `scoring ${stage}: ${done}/${total}`);
  };
}

async function publish(args: string[], ctx: CliContext): Promise<number> {
  const { positionals, values } = parse(
    args,
    { notes: { type: "string" }, material: { type: "boolean", default: false }, draws: { type: "string" } },
    1,
  );
  const file = positionals[0] as string;
  const draws = values.draws === undefined ? undefined : Number(values.draws);
  if (draws !== undefined && !(Number.isInteger(draws) && draws >= 100 && draws <= 100_000))
    throw new UsageError("--draws must be a whole number from 100 to 100000");
  const definition = await loadDefinitionFile(file);
  return withDatabase(ctx, async ({ db }) => {
    if (definition.kind === "geographies") {
      const counts = await publishGeographies(db, file, definition);
      ctx.io.out(`published ${counts.controls} controls and ${counts.geographies} geographies from ${file}`);
      return 0;
    }
    if (values.notes === undefined) throw new UsageError("publish needs --notes TEXT (the changelog entry)");
    const published = await publishMarket(db, file, definition, {
      notes: values.notes,
      material: values.material === true,
      publishedAt: ctx.now(),
      ...(draws === undefined ? {} : { draws }),
      progress: progressReporter(ctx, definition.products.length * definition.indicators.length),
    });
    ctx.io.out(
      `published ${published.marketId} release ${published.release} (${published.products} products, ` +
        `${published.countries} geographies) at ${published.publishedAt.toISOString()}`,
    );
    return 0;
  });
}

async function preview(args: string[], ctx: CliContext): Promise<number> {
  const { positionals, values } = parse(
    args,
    { country: { type: "string" }, json: { type: "boolean", default: false } },
    1,
  );
  const file = positionals[0] as string;
  const definition = await loadDefinitionFile(file);
  if (definition.kind !== "market")
    throw new CatalogStateError(
      `${file} is a geographies file: preview compares a market file with its latest release`,
    );
  const { latest, next } = await withDatabase(ctx, ({ db }) =>
    previewMarket(db, file, definition, {
      publishedAt: ctx.now(),
      progress: progressReporter(ctx, definition.products.length * definition.indicators.length),
    }),
  );
  if (!latest) {
    const products = next.products.length;
    ctx.io.out(
      values.json
        ? JSON.stringify({ marketId: next.marketId, release: next.release, newMarket: true, products })
        : `${next.marketId} has no release yet: publishing ${file} would store release 1 of a new market with ${products} products`,
    );
    return 0;
  }
  const country = previewCountry(values.country, latest.countries, next.countries);
  const comparison = changes(latest, next, country);
  if (values.json) ctx.io.out(JSON.stringify(comparison));
  else for (const line of previewLines(comparison)) ctx.io.out(line);
  return 0;
}

async function setStatus(command: "archive" | "restore", args: string[], ctx: CliContext): Promise<number> {
  const [marketId] = parse(args, {}, 1).positionals as [string];
  await withDatabase(ctx, ({ db }) =>
    command === "archive" ? archiveMarket(db, marketId) : restoreMarket(db, marketId),
  );
  ctx.io.out(`${command === "archive" ? "archived" : "restored"} ${marketId}`);
  return 0;
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { json: { type: "boolean", default: false } }, 0);
  const markets = await withDatabase(ctx, ({ db }) => listMarkets(db));
  if (values.json) {
    ctx.io.out(
      JSON.stringify(
        markets.map((m) => ({
          marketId: m.marketId,
          status: m.status,
          release: m.release,
          lastUpdated: m.lastUpdated?.toISOString() ?? null,
          productCount: m.productCount,
        })),
      ),
    );
    return 0;
  }
  if (markets.length === 0) ctx.io.out("no markets");
  for (const m of markets)
    ctx.io.out(
      [
        m.marketId.padEnd(32),
        m.status.padEnd(9),
        `release ${m.release ?? "-"}`.padEnd(12),
        `${m.productCount} products`,
      ].join(" "),
    );
  return 0;
}
