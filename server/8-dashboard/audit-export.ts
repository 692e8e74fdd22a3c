/**
 * The audit trail as CSV (`/audit/export.csv`), for the signed-in person's active organization,
 * with the dashboard's filters: owners and admins only (anyone else: 404, as the page's query).
 * At most AUDIT_CSV_MAX_ROWS newest events: a longer trail is downloaded period by period. Every
 * text cell is neutralised against formula injection and quoted (server/2-formats/csv.ts).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { publicOrigin } from "../2-http/origin";
import { AUDIT_PATH, SIGN_IN_PATH } from "../2-http/paths";
import { problemOf, problemResponse } from "../2-http/problem";
import { auditCsv, auditEventsForExport, dayBound, mayReadAudit } from "../4-organizations/audit";
import { activeOrganizationOf } from "../4-organizations/organizations";
import { getDatabase } from "../5-database/app-database";
import { auditFilterInput } from "../7-routers/audit";
import { currentUser } from "./guards";

export async function auditExportResponse(request: Request): Promise<Response> {
  const context = { origin: publicOrigin(request), requestId: randomUUID() };
  const noStore = { "Cache-Control": "no-store" };
  const user = await currentUser();
  if (!user)
    return new Response(null, {
      status: 303,
      headers: { ...noStore, Location: `${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(AUDIT_PATH)}` },
    });
  const { db } = await getDatabase();
  const organization = await activeOrganizationOf(db, user.id);
  if (!organization || !(await mayReadAudit(db, user.id, organization.id)))
    return problemResponse(
      problemOf("not_found", "Only owners and admins of the organization can read its audit trail.", context),
      noStore,
    );
  const params = Object.fromEntries(
    [...new URL(request.url).searchParams].filter(([name, value]) => value !== "" && name !== "cursor"),
  );
  const filter = auditFilterInput.safeParse(params);
  if (!filter.success)
    return problemResponse(
      problemOf("invalid_request", "The filters are not ones the audit page gives.", context, {
        issues: filter.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      }),
      noStore,
    );
  const events = await auditEventsForExport(db, organization.id, {
    action: filter.data.action,
    actor: filter.data.actor || undefined,
    from: dayBound(filter.data.from, "start"),
    to: dayBound(filter.data.to, "end"),
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(auditCsv(events), {
    headers: {
      ...noStore,
      "Content-Type": "text/csv; charset=utf-8",
      // The organization id is [a-z0-9_]: safe in the header as it is.
      "Content-Disposition": `attachment; filename="audit-${organization.id.replace(/[^A-Za-z0-9_-]/g, "")}-${day}.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
