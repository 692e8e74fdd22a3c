-- Embeds (docs/embeds.md): a third theme, auto, which follows the reader's light or dark setting;
-- the default for new embeds. Stored light and dark embeds keep their fixed theme.
ALTER TABLE "embeds" DROP CONSTRAINT "embeds_theme";--> statement-breakpoint
ALTER TABLE "embeds" ALTER COLUMN "theme" SET DEFAULT 'auto';--> statement-breakpoint
ALTER TABLE "embeds" ADD CONSTRAINT "embeds_theme" CHECK ("embeds"."theme" in ('auto', 'light', 'dark'));