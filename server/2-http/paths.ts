/** Dashboard paths the server names in responses and redirects. */
export const SIGN_IN_PATH = "/signin";
export const CHECK_EMAIL_PATH = "/signin/check-email";
export const ONBOARDING_PATH = "/onboarding";
export const TOKENS_PATH = "/tokens";
export const CREDITS_PATH = "/credits";
export const WEBHOOKS_PATH = "/webhooks";
export const EMBEDS_PATH = "/embeds";
export const CONNECT_PATH = "/connect";
export const MEMBERS_PATH = "/members";
export const IDENTITY_PROVIDER_PATH = "/identity-provider";
export const INVITATIONS_PATH = "/invitations";
export const OUTBOX_PATH = "/dev/outbox";
export const MCP_PATH = "/mcp";
/** Where Stripe sends its events (docs/billing.md); answered from Node, outside Next. */
export const STRIPE_WEBHOOK_PATH = "/stripe/webhook";
export const GEOGRAPHIES_PATH = "/geographies";
export const MARKETS_PATH = "/markets";
export const NOTIFICATIONS_PATH = "/notifications";
export const NOTIFICATION_SETTINGS_PATH = "/notifications/settings";
export const AUDIT_PATH = "/audit";
export const AUDIT_EXPORT_PATH = "/audit/export.csv";
export const API_DOCS_PATH = "/docs/api";
export const API_REFERENCE_FRAME_PATH = "/docs/api/reference";
/** The docs for agents (llmstxt.org): the list of every public document, each served as Markdown. */
export const LLMS_TXT_PATH = "/llms.txt";
/** Where a public guide of docs/ is served as Markdown: `/docs/{name}.md`. */
export const DOCS_PATH = "/docs";
