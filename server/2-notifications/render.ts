/**
 * Notification e-mails and the weekly summary as mail: a subject, a plain-text part and an HTML
 * part. Every name in them is catalogue text, so the HTML escapes it and headers get it on one
 * line without control characters. Pure: the links come in as arguments.
 */

import type {
  AvailabilityMove,
  CreditsPurchasedContent,
  LowBalanceContent,
  NotificationContent,
  TopUpFailedContent,
  WebhookDisabledContent,
  WeeklyContent,
  WeeklyMarket,
} from "../1-domain/notification-content";
import { AXIS_LABELS } from "../2-comparisons/comparison-phrases";
import { bandSentence, moveSentence } from "../2-comparisons/comparison-summary";
import { moneyText } from "../2-formats/money";
import { nameList } from "../2-formats/name-list";
import { escapeHtml } from "../2-http/html";
import { CREDITS_PATH, NOTIFICATION_SETTINGS_PATH, WEBHOOKS_PATH } from "../2-http/paths";
import { type ReadingContext, readingHref } from "../2-http/reading-context";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailLinks {
  /** The dashboard's origin, e.g. https://app.example.com. */
  origin: string;
  /** Signed one-click unsubscribe link for this mail's list. */
  unsubscribe: string;
}

/** One line, no control characters, bounded: safe in a Subject header and a log line. */
export function headerText(text: string, max = 120): string {
  const line = [...text]
    .map((c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? " " : c;
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Where a notification leads, in the reader's context (the in-app list keeps the country the
 * reader came with; an e-mail has none, so the market opens under the organization's home): the
 * market, and What changed between the release it announces and the one before.
 */
export function notificationPaths(
  content: Pick<NotificationContent, "marketId" | "comparedWith" | "release">,
  context: ReadingContext = {},
): { market: string; changes: string | null } {
  const { marketId, comparedWith, release } = content;
  return {
    market: readingHref({ to: "market", marketId }, context),
    changes:
      comparedWith !== null && release !== null
        ? readingHref({ to: "market", marketId, view: "changes" }, context, {
            query: { from: comparedWith, to: release },
            hash: "changes",
          })
        : null,
  };
}

const AVAILABILITY_WORDS: Record<AvailabilityMove, string> = {
  became_available: "became available",
  became_unavailable: "became unavailable",
  offering_changed: "is now served by another offering",
};

/** The sentences a notification says, in order: what happened, then the top changes. */
export function notificationLines(content: NotificationContent): { headline: string; details: string[] } {
  if (content.kind === "market_archived")
    return {
      headline: `${content.marketName} was archived: it is no longer listed; its releases are kept.`,
      details: [],
    };
  const details: string[] = [];
  if (content.comparedWith === null)
    details.push(`The first release of this market, with ${content.productsEntered.length} products.`);
  else {
    if (content.methodologyChanged)
      details.push(
        content.material
          ? `The methodology changed materially (version ${content.methodologyVersion}).`
          : `The methodology was revised (version ${content.methodologyVersion}), not materially.`,
      );
    else details.push(`Methodology ${content.methodologyVersion}, unchanged.`);
    if (content.productsEntered.length) details.push(`Entered: ${nameList(content.productsEntered)}.`);
    if (content.productsLeft.length) details.push(`Left: ${nameList(content.productsLeft)}.`);
    for (const move of content.topMoves) details.push(`${moveSentence(move)}.`);
    if (content.topMoves.length === 0) details.push("No score changed.");
    for (const move of content.bandMoves) details.push(`${bandSentence(move)}.`);
  }
  return {
    headline: `Release ${content.release} of ${content.marketName} was published${content.material ? " — material methodology change" : ""}.`,
    details,
  };
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font:15px/1.5 system-ui,sans-serif;color:#1b1f24;max-width:40rem;margin:0 auto;padding:1rem">${body}</body></html>`;

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
const list = (items: string[]) =>
  items.length ? `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>` : "";

function footer(links: MailLinks, why: string) {
  const settings = `${links.origin}${NOTIFICATION_SETTINGS_PATH}`;
  return {
    text: `\n--\n${why}\nSettings: ${settings}\nUnsubscribe: ${links.unsubscribe}\n`,
    html: `<hr><p style="color:#57606a;font-size:13px">${escapeHtml(why)} ${link(settings, "Notification settings")} · ${link(links.unsubscribe, "Unsubscribe")}</p>`,
  };
}

/** The e-mail of one notification (a release published, a market archived). */
export function renderNotificationMail(content: NotificationContent, links: MailLinks): RenderedMail {
  const { headline, details } = notificationLines(content);
  const paths = notificationPaths(content);
  const market = `${links.origin}${paths.market}`;
  const comparison = paths.changes === null ? null : `${links.origin}${paths.changes}`;
  const subject = headerText(
    content.kind === "market_archived"
      ? `${content.marketName} was archived`
      : `${content.marketName}: release ${content.release}${content.material ? " (material methodology change)" : ""}`,
  );
  const foot = footer(links, "You follow this market and chose e-mail for its releases.");
  const notes = content.notes ? `Release notes: ${content.notes}` : null;
  const text = [
    headline,
    "",
    ...details,
    ...(notes ? ["", notes] : []),
    "",
    `Market: ${market}`,
    ...(comparison ? [`What changed: ${comparison}`] : []),
    foot.text,
  ].join("\n");
  const html = page(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(headline)}</h1>${list(details)}${notes ? `<p>${escapeHtml(notes)}</p>` : ""}<p>${link(market, `Open ${content.marketName}`)}${comparison ? ` · ${link(comparison, "What changed")}` : ""}</p>${foot.html}`,
  );
  return { subject, text, html };
}

/** The lines of one market in the weekly summary. */
export function weeklyMarketLines(market: WeeklyMarket, country: string | null): string[] {
  const lines: string[] = [];
  for (const r of market.releases)
    lines.push(
      `Release ${r.release} published ${r.publishedAt.slice(0, 10)}, methodology ${r.methodologyVersion}${r.material ? " (material change)" : ""}.`,
    );
  if (market.archived) lines.push("Archived this week: no longer listed.");
  if (market.compared) lines.push(`Compared: release ${market.compared.from} → ${market.compared.to}.`);
  if (market.productsEntered.length) lines.push(`Entered: ${nameList(market.productsEntered)}.`);
  if (market.productsLeft.length) lines.push(`Left: ${nameList(market.productsLeft)}.`);
  for (const axis of Object.keys(AXIS_LABELS) as (keyof typeof AXIS_LABELS)[]) {
    const movers = market.movers.filter((m) => m.axis === axis);
    if (movers.length) lines.push(`Biggest movers, ${AXIS_LABELS[axis]}: ${movers.map(moveSentence).join("; ")}.`);
  }
  for (const move of market.bandMoves) lines.push(`${bandSentence(move)}.`);
  for (const a of market.availability)
    lines.push(
      `${a.product} ${AVAILABILITY_WORDS[a.change]} under ${country}${a.change === "offering_changed" ? ` (${a.offeringFrom} → ${a.offeringTo})` : ""}.`,
    );
  return lines;
}

/** The weekly summary; a quiet week renders as the one-line note. */
export function renderWeeklyMail(content: WeeklyContent, links: MailLinks): RenderedMail {
  const quiet = content.markets.length === 0;
  const subject = quiet
    ? `Your weekly summary (${content.week}): nothing new`
    : `Your weekly summary (${content.week}): ${content.markets.length} market${content.markets.length === 1 ? "" : "s"} changed`;
  const period = `${content.periodStart.slice(0, 16).replace("T", " ")} – ${content.periodEnd.slice(0, 16).replace("T", " ")} UTC`;
  const foot = footer(links, "You chose the weekly summary of the markets you follow.");
  if (quiet) {
    const line = `Nothing changed in the markets you follow this week (${period}).`;
    return {
      subject,
      text: `${line}\n${foot.text}`,
      html: page(subject, `<p>${escapeHtml(line)}</p>${foot.html}`),
    };
  }
  const sections = content.markets.map((market) => {
    // The summary reads availability under the organization's country: its links open there too.
    const url = `${links.origin}${readingHref({ to: "market", marketId: market.marketId }, content.country ? { country: content.country } : {})}`;
    return { market, url, lines: weeklyMarketLines(market, content.country) };
  });
  const intro = `What changed in the markets you follow, ${period}${content.country ? `; availability under ${content.country}` : ""}.`;
  const text = [
    intro,
    ...sections.flatMap(({ market, url, lines }) => ["", `== ${market.marketName} ==`, ...lines, url]),
    foot.text,
  ].join("\n");
  const html = page(
    subject,
    `<h1 style="font-size:20px">Your weekly summary</h1><p>${escapeHtml(intro)}</p>${sections
      .map(
        ({ market, url, lines }) =>
          `<h2 style="font-size:17px">${escapeHtml(market.marketName)}</h2>${list(lines)}<p>${link(url, `Open ${market.marketName}`)}</p>`,
      )
      .join("")}${foot.html}`,
  );
  return { subject, text, html };
}

/** A service mail to an organization's owners about their account: what happened, and one link. */
function ownerMail(
  subject: string,
  details: string[],
  target: { label: string; url: string; text: string },
): RenderedMail {
  const signature = "You own this organization.";
  const text = [subject, "", ...details, "", `${target.label}: ${target.url}`, "", "--", signature].join("\n");
  const html = page(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1>${list(details)}<p>${link(target.url, target.text)}</p><hr><p style="color:#57606a;font-size:13px">${signature}</p>`,
  );
  return { subject, text, html };
}

/**
 * The e-mail to an organization's owners when the service disabled one of its webhook endpoints:
 * which endpoint, since when it failed, and where to see the deliveries and enable it again. A
 * service mail about their account, not a list: it has no unsubscribe link.
 */
export function renderWebhookDisabledMail(content: WebhookDisabledContent, origin: string): RenderedMail {
  const endpointPage = `${origin}${WEBHOOKS_PATH}/${encodeURIComponent(content.endpointId)}`;
  const subject = headerText(`${content.organizationName}: a webhook endpoint was disabled after failing`);
  const details = [
    `Endpoint: ${content.url}${content.description ? ` (${content.description})` : ""}`,
    `Every delivery has failed since ${content.failingSince} (${content.consecutiveFailures} attempts in a row); the last: ${content.lastError}.`,
    `It was disabled at ${content.disabledAt}. Events from then on are not sent to it; enable it again once it answers, and resend what it missed from its delivery log.`,
  ];
  return ownerMail(subject, details, {
    label: "Deliveries and settings",
    url: endpointPage,
    text: "Open the endpoint's deliveries",
  });
}

const wholeCredits = (n: number) => `${n.toLocaleString("en")} credit${n === 1 ? "" : "s"}`;

/**
 * The e-mail to an organization's owners when a debit took its balance to or below the threshold
 * they set: the balance, the threshold, and where to see the ledger or change the threshold. Once
 * per crossing; a service mail about their account, so no unsubscribe link (setting the threshold
 * to 0 turns it off).
 */
export function renderLowBalanceMail(content: LowBalanceContent, origin: string): RenderedMail {
  const creditsPage = `${origin}${CREDITS_PATH}`;
  const subject = headerText(`${content.organizationName}: low balance, ${wholeCredits(content.balance)} left`);
  const details = [
    `The balance of ${content.organizationName} is ${wholeCredits(content.balance)}, at or below the warning threshold of ${wholeCredits(content.threshold)} (since ${content.crossedAt}).`,
    "API and MCP calls are refused with 402 insufficient_credits once the balance cannot pay for them. Ask an operator for more credits.",
    "This e-mail is sent once each time the balance falls to the threshold; it is sent again only after the balance has been above it. The threshold is set on the credits page (0 turns the warning off).",
  ];
  return ownerMail(subject, details, { label: "Credits and ledger", url: creditsPage, text: "Open the credits page" });
}

/**
 * The e-mail to an organization's owners and billing members when a credit pack was paid: the
 * credits, the price, the balance now and the invoice. A service mail about their account.
 */
export function renderCreditsPurchasedMail(content: CreditsPurchasedContent, origin: string): RenderedMail {
  const subject = headerText(`${content.organizationName}: ${wholeCredits(content.credits)} bought`);
  const details = [
    `${wholeCredits(content.credits)} were added to ${content.organizationName} for ${moneyText(content.amount, content.currency)} (paid ${content.paidAt}). The balance is now ${wholeCredits(content.balance)}.`,
    content.invoiceUrl
      ? `Invoice: ${content.invoiceUrl}`
      : "The invoice is listed on the credits page once Stripe has made it.",
  ];
  return ownerMail(subject, details, {
    label: "Credits and purchases",
    url: `${origin}${CREDITS_PATH}`,
    text: "Open the credits page",
  });
}

/**
 * The e-mail to an organization's owners and billing members when an automatic top-up failed:
 * what happened, what to do (update the card, or complete the card's authentication, on the
 * credits page), and whether automatic top-up is now paused. A service mail about their account.
 */
export function renderTopUpFailedMail(content: TopUpFailedContent, origin: string): RenderedMail {
  const subject = headerText(
    `${content.organizationName}: automatic top-up failed${content.pausedReason ? " and is paused" : ""}`,
  );
  const details = [
    `Automatic top-up of ${content.organizationName} could not buy ${wholeCredits(content.credits)} for ${moneyText(content.amount, content.currency)} (${content.failedAt}). ${content.reason}`,
    content.remedy,
    content.pausedReason
      ? `Automatic top-up is paused (${content.pausedReason}) until an owner or billing member saves its settings again on the credits page.`
      : `It will try again the next time the balance falls to its threshold (${content.failuresInRow} failure${content.failuresInRow === 1 ? "" : "s"} in a row; at 3 it pauses).`,
  ];
  return ownerMail(subject, details, {
    label: "Credits and automatic top-up",
    url: `${origin}${CREDITS_PATH}`,
    text: "Open the credits page",
  });
}
