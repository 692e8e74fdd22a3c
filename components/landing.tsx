/**
 * What a visitor sees first: what the service is, one real reading of a demo market (the Max
 * reading under one country's controls, free and without signing in), and the way in.
 */
import Link from "next/link";
import { count, score } from "@/components/format";
import { TableWrap } from "@/components/ui/table-wrap";
import { API_DOCS_PATH, SIGN_IN_PATH } from "@/server/2-http/paths";
import { readingHref } from "@/server/2-http/reading-context";
import type { SampleReading } from "@/server/8-dashboard/sample-reading";

export function Landing({ sample }: { sample: SampleReading | null }) {
  return (
    <section className="landing" aria-labelledby="landing-title" data-testid="landing">
      <h1 id="landing-title">Which products can you still use under a country&apos;s sovereign controls?</h1>
      <p className="lead">
        Market Positioning scores every product of a technology market — foundation-model APIs, managed Kubernetes,
        object storage — on Innovation, Control and Scale, then engages a country&apos;s controls (EU data residency,
        SecNumCloud, FedRAMP High, customer-held keys…) and shows what each product keeps and loses. The same readings
        come as a dashboard, a REST API and MCP tools for AI agents. It never recommends a vendor.
      </p>
      <p className="cta">
        <Link href={SIGN_IN_PATH} className="button" data-testid="landing-sign-in">
          Sign in or create an account
        </Link>{" "}
        <Link href={API_DOCS_PATH}>Read the API reference</Link>
      </p>
      <SampleFigure sample={sample} />
    </section>
  );
}

function SampleFigure({ sample }: { sample: SampleReading | null }) {
  if (!sample || sample.kind === "none") return null;
  if (sample.kind === "throttled")
    return (
      <p className="notice" data-testid="sample-throttled">
        The sample reading is resting: too many views from your network in the last minute. Try again in{" "}
        {sample.retryAfterSeconds} s, or sign in to read every market.
      </p>
    );
  const { reading, marketName, countryName, total, usable } = sample;
  return (
    <figure className="sample card" data-testid="sample-reading">
      <figcaption>
        <strong>Sample, live:</strong> {marketName}, release {reading.release}, under {countryName}&apos;s controls.{" "}
        <span className="usable-headline-inline" data-testid="sample-headline">
          {count(usable)} of {count(total)} products are usable there.
        </span>
      </figcaption>
      <TableWrap label="The sample reading">
        <table>
          <caption className="sr-only">
            The Max reading: products ranked by the Innovation they keep under {countryName}&apos;s controls; the
            unavailable set apart.
          </caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Rank
              </th>
              <th scope="col">Product</th>
              <th scope="col" className="num">
                Innovation published
              </th>
              <th scope="col" className="num">
                Kept under {reading.country}
              </th>
            </tr>
          </thead>
          <tbody>
            {reading.products.map((p) => (
              <tr key={p.productId} className={p.available ? undefined : "unavailable"}>
                <td className="num" data-label="Rank">
                  {p.available ? p.rank : "–"}
                </td>
                <th scope="row">
                  {p.name} <span className="hint">{p.vendor}</span>
                </th>
                <td className="num" data-label="Innovation published">
                  {score(p.off.innovation)}
                </td>
                <td className="num" data-label={`Kept under ${reading.country}`}>
                  {p.available ? score(p.on.innovation) : "unavailable"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p className="hint" data-testid="sample-more">
        {total > reading.products.length ? (
          <>
            The first {count(reading.products.length)} of {count(total)} products.{" "}
            <Link
              href={`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(readingHref({ to: "market", marketId: sample.marketId, view: "readings" }))}`}
            >
              Sign in to read them all
            </Link>
            .{" "}
          </>
        ) : null}
        Demo data: every vendor here is fictional.
      </p>
    </figure>
  );
}
