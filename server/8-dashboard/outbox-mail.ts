/**
 * One dev-outbox mail's HTML part, as a mail client would show it: for a browser on this machine
 * only (as the outbox page), under a CSP that runs nothing and loads nothing, so a hostile name
 * that escaped escaping still could not act. Its links work: that is what it is for.
 */

import { isLoopbackPeer } from "../2-http/peer";
import { getDatabase } from "../5-database/app-database";
import { outboxMail, outboxPageEnabled } from "../6-mail/mail";

const NOT_FOUND = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });

export async function outboxMailResponse(request: Request, id: string): Promise<Response> {
  if (!outboxPageEnabled() || !isLoopbackPeer(request.headers) || !/^\d{1,9}$/.test(id)) return NOT_FOUND();
  const { db } = await getDatabase();
  const mail = await outboxMail(db, Number(id));
  if (!mail?.html) return NOT_FOUND();
  return new Response(mail.html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; sandbox",
      "cache-control": "no-store",
    },
  });
}
