/**
 * What the JSON columns of notifications and the mail owed hold (db/stored-shapes.ts names them;
 * db/ takes nothing from server/, so the shapes are declared from here, where they are written).
 */
import type { MailContent, NotificationContent } from "../1-domain/notification-content";

declare module "../../db/stored-shapes" {
  interface StoredShapes {
    /** notifications.content: what one catalogue event says to one follower. */
    notificationContent: NotificationContent;
    /** mail_deliveries.content: what one e-mail owed says, by its kind. */
    mailContent: MailContent;
  }
}
