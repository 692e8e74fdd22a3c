import type { Metadata } from "next";
import Link from "next/link";
import { MarkAllReadButton, MarkReadButton } from "@/components/account/notification-actions";
import { utcMinute } from "@/components/format";
import { NOTIFICATION_SETTINGS_PATH, NOTIFICATIONS_PATH } from "@/server/2-http/paths";
import { readingContextFrom } from "@/server/2-http/reading-context";
import { notificationPaths } from "@/server/2-notifications/render";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { requireUser } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

/**
 * The signed-in person's notifications, newest first; unread ones marked. The bell keeps the
 * country of the page it was clicked on: each market opens under it.
 */
export default async function NotificationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { country } = readingContextFrom(await searchParams);
  const reading = country ? { country } : {};
  await requireUser(NOTIFICATIONS_PATH);
  const api = await dashboardCaller();
  const notifications = await api.notifications.list({});
  const unread = notifications.filter((n) => !n.read).length;
  return (
    <main>
      <h1>Notifications</h1>
      <p>
        {unread} unread. <Link href={NOTIFICATION_SETTINGS_PATH}>Followed markets and e-mail settings</Link>
      </p>
      {unread > 0 ? <MarkAllReadButton /> : null}
      {notifications.length === 0 ? (
        <p>No notifications yet. Follow a market to hear of its releases.</p>
      ) : (
        <ol className="notifications" data-testid="notifications">
          {notifications.map((n) => {
            const paths = notificationPaths(n.content, reading);
            return (
              <li key={n.id} className={n.read ? "read" : "unread"} data-testid="notification" data-read={n.read}>
                <strong>{n.headline}</strong> <time dateTime={n.createdAt}>{utcMinute(n.createdAt)}</time>
                {n.details.length ? (
                  <ul className="details">
                    {n.details.map((line, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed once written
                      <li key={index}>{line}</li>
                    ))}
                  </ul>
                ) : null}
                <p>
                  {n.content.kind === "release_published" ? (
                    <Link href={paths.market}>Open {n.content.marketName}</Link>
                  ) : null}
                  {paths.changes !== null ? (
                    <>
                      {" · "}
                      <Link href={paths.changes}>What changed</Link>
                    </>
                  ) : null}
                  {n.read ? null : (
                    <>
                      {" · "}
                      <MarkReadButton id={n.id} />
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ol>
      )}
    </main>
  );
}
