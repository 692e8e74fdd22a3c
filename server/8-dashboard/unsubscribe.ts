/**
 * The one-click unsubscribe link of every notification e-mail (RFC 8058), working without a
 * session: the link's signed token names the person and the list. GET shows a page with one
 * button (a link scanner's GET must not unsubscribe anyone); POST — that button, or a mail
 * client's `List-Unsubscribe=One-Click` — turns the list off. Nothing a user named is shown.
 */

import { escapeHtml } from "../2-http/html";
import { NOTIFICATION_SETTINGS_PATH } from "../2-http/paths";
import { log } from "../3-observability/logger";
import { updatePreferences } from "../4-following/following";
import { getDatabase } from "../5-database/app-database";
import { type MailList, readUnsubscribeToken } from "../6-mail/unsubscribe";

const LIST_NAMES: Record<MailList, string> = {
  release: "e-mails about new releases of the markets you follow",
  weekly: "the weekly summary e-mail",
};

const page = (status: number, title: string, body: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} — Market Positioning</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}button{font:inherit;padding:.4rem 1rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
  );

const invalid = () =>
  page(
    400,
    "This link is not valid",
    `<p>The unsubscribe link is incomplete or was not issued by this service. Open it again from the e-mail, or change your e-mail choices in <a href="${NOTIFICATION_SETTINGS_PATH}">notification settings</a>.</p>`,
  );

export async function unsubscribeResponse(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const subject = await readUnsubscribeToken(token);
  if (!subject) return invalid();
  const what = LIST_NAMES[subject.list];
  if (request.method !== "POST")
    return page(
      200,
      "Unsubscribe",
      `<p>Stop ${escapeHtml(what)}?</p><form method="post" action="?token=${encodeURIComponent(token)}"><button type="submit" data-testid="unsubscribe">Unsubscribe</button></form>`,
    );
  const { db } = await getDatabase();
  try {
    await updatePreferences(
      db,
      subject.userId,
      subject.list === "release" ? { releaseEmails: false } : { weeklySummary: false },
    );
  } catch (error) {
    // A person who no longer exists gets no mail: the answer is the same.
    if (
      (error as { code?: string }).code !== "23503" &&
      (error as { cause?: { code?: string } }).cause?.code !== "23503"
    )
      throw error;
  }
  log().info({ userId: subject.userId, list: subject.list }, "mail: unsubscribed");
  return page(
    200,
    "Unsubscribed",
    `<p>You will no longer receive ${escapeHtml(what)}. You can turn it back on in <a href="${NOTIFICATION_SETTINGS_PATH}">notification settings</a>.</p>`,
  );
}
