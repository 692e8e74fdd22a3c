import { auditExportResponse } from "@/server/8-dashboard/audit-export";

export const dynamic = "force-dynamic";

/** The audit trail as CSV, with the page's filters (server/8-dashboard/audit-export.ts). */
export const GET = (request: Request) => auditExportResponse(request);
