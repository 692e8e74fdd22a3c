/**
 * Seeds an empty database with the demo catalogue (db/demo/manifest.yaml), through the same
 * publish and archive operations the operator CLI uses. A database with any market or control
 * is left alone.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { Database } from "../../db/client";
import { users } from "../../db/schema";
import { loadDefinitionFile } from "../3-catalog/load";
import { archiveMarket, catalogueIsEmpty, publishGeographies, publishMarket } from "../3-catalog/store";
import { createOrganization } from "../4-organizations/organizations";

export const DEMO_FOLDER = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "db/demo");

const manifestSchema = z.strictObject({
  steps: z.array(
    z.union([
      z.strictObject({
        publish: z.string(),
        notes: z.string().optional(),
        material: z.boolean().default(false),
        publishedAt: z.iso.datetime().optional(),
      }),
      z.strictObject({ archive: z.string() }),
    ]),
  ),
});

/** Returns true when it seeded, false when the database already had a catalogue. */
export async function seedDemoCatalogue(db: Database, folder = DEMO_FOLDER): Promise<boolean> {
  if (!(await catalogueIsEmpty(db))) return false;
  const manifestFile = path.join(folder, "manifest.yaml");
  const manifest = manifestSchema.parse(parseYaml(await readFile(manifestFile, "utf8")));
  for (const step of manifest.steps) {
    if ("archive" in step) {
      await archiveMarket(db, step.archive);
      continue;
    }
    const file = path.join(folder, step.publish);
    const definition = await loadDefinitionFile(file);
    if (definition.kind === "geographies") await publishGeographies(db, file, definition);
    else
      await publishMarket(db, file, definition, {
        notes: step.notes ?? "",
        material: step.material,
        publishedAt: step.publishedAt ? new Date(step.publishedAt) : new Date(),
      });
  }
  await seedDemoAccounts(db);
  return true;
}

/** The demo organization and its owner, for trying the dashboard and API at once (README). */
export const DEMO_ACCOUNT = {
  userId: "usr_demo",
  email: "demo@example.com",
  organizationId: "org_demo",
  organizationName: "Demo Organization",
  homeCountry: "DE",
} as const;

async function seedDemoAccounts(db: Database): Promise<void> {
  await db
    .insert(users)
    .values({ id: DEMO_ACCOUNT.userId, email: DEMO_ACCOUNT.email, name: "Demo User", emailVerified: new Date() });
  await createOrganization(db, {
    id: DEMO_ACCOUNT.organizationId,
    name: DEMO_ACCOUNT.organizationName,
    homeCountry: DEMO_ACCOUNT.homeCountry,
    ownerUserId: DEMO_ACCOUNT.userId,
  });
}
