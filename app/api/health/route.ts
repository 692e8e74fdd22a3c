import { sql } from "drizzle-orm";
import { getDatabase } from "@/server/5-database/app-database";

export const dynamic = "force-dynamic";

/** Liveness and readiness: 200 once the database is migrated, seeded and answering. */
export async function GET() {
  try {
    const { db, config } = await getDatabase();
    await db.execute(sql`select 1`);
    return Response.json({ status: "ok", database: config.kind });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503 });
  }
}
