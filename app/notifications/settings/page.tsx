import type { Metadata } from "next";
import Link from "next/link";
import { NotificationSettings } from "@/components/account/notification-settings";
import { NOTIFICATION_SETTINGS_PATH, NOTIFICATIONS_PATH } from "@/server/2-http/paths";
import { weeklyScheduleFromEnv } from "@/server/2-notifications/week";
import { requireUser } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Notification settings" };
export const dynamic = "force-dynamic";

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export default async function NotificationSettingsPage() {
  await requireUser(NOTIFICATION_SETTINGS_PATH);
  const schedule = weeklyScheduleFromEnv();
  return (
    <main>
      <p className="hint">
        <Link href={NOTIFICATIONS_PATH}>Notifications</Link> /
      </p>
      <h1>Notification settings</h1>
      <p>
        Following a market brings a notification here for each of its releases, and when it is archived. The weekly
        summary goes out on {DAY_NAMES[schedule.day - 1]}s at {String(schedule.hour).padStart(2, "0")}:00 (
        {schedule.timeZone}) and covers the seven days before.
      </p>
      <NotificationSettings />
    </main>
  );
}
