/**
 * A product's EU Cloud Sovereignty Framework profile under a country: the overall SEAL level (the
 * weakest objective's) and each objective's level with the facts behind it and their evidence. The
 * weakest objectives are marked in words and style, never by colour alone. Facts are catalogue
 * text: rendered as text, sources as links only when they are http(s).
 */
import type { inferRouterOutputs } from "@trpc/server";
import { TableWrap } from "@/components/ui/table-wrap";
import type { AppRouter } from "@/server/7-routers/root";
import { EvidenceBlock } from "./evidence";

export type SovereigntyProfile = inferRouterOutputs<AppRouter>["readings"]["sovereignty"];

export const sealText = (level: number | null) => (level === null ? "not assessable" : `SEAL-${level}`);

const factValue = (value: number | boolean | string) =>
  typeof value === "boolean" ? (value ? "yes" : "no") : String(value);

/** "SEAL-2, weakest SOV-5 Supply chain": the line a product page and a reading show. */
export function OverallSeal({ profile }: { profile: SovereigntyProfile }) {
  const names = new Map(profile.objectives.map((o) => [o.objective, o.name]));
  return (
    <p className="seal-overall" data-testid="seal-overall" data-level={profile.overall.level ?? "none"}>
      <span className={`badge seal seal-${profile.overall.level ?? "none"}`}>{sealText(profile.overall.level)}</span>{" "}
      overall
      {profile.overall.level === null
        ? ": the catalogue maps no fact to some objective, so the weakest cannot be known."
        : `, the weakest objective's: ${profile.overall.weakest.map((o) => `${o} ${names.get(o) ?? ""}`).join(", ")}.`}
    </p>
  );
}

export function SovereigntyTable({ profile }: { profile: SovereigntyProfile }) {
  const weakest = new Set(profile.overall.weakest);
  return (
    <TableWrap label={`Sovereignty objectives of ${profile.name}`}>
      <table data-testid="sovereignty-table">
        <thead>
          <tr>
            <th scope="col">Objective</th>
            <th scope="col">Level</th>
            <th scope="col">Facts (level each evidences)</th>
          </tr>
        </thead>
        <tbody>
          {profile.objectives.map((o) => (
            <tr
              key={o.objective}
              className={weakest.has(o.objective) ? "weakest" : undefined}
              data-testid="sovereignty-objective"
              data-objective={o.objective}
              data-level={o.level ?? "none"}
              data-weakest={weakest.has(o.objective) ? "true" : "false"}
            >
              <th scope="row">
                {o.objective} {o.name}
                {weakest.has(o.objective) ? <span className="badge weakest-badge">weakest</span> : null}
              </th>
              <td data-label="Level">
                <span className={`badge seal seal-${o.level ?? "none"}`}>{sealText(o.level)}</span>
              </td>
              <td data-label="Facts">
                {o.facts.length === 0 ? (
                  <span className="hint">
                    {o.level === null
                      ? "Nothing in the catalogue speaks to it."
                      : "No fact of this offering evidences it."}
                  </span>
                ) : (
                  <ul className="facts">
                    {o.facts.map((f) => (
                      <li key={`${f.kind}:${f.id}`}>
                        {f.kind === "control" ? "Satisfies " : ""}
                        <strong>{f.name}</strong>
                        {f.kind === "indicator" ? `: ${factValue(f.value)}` : ""} → SEAL-{f.level}
                        {f.statedBy !== profile.offering.id ? (
                          <span className="hint"> (inherited from {f.statedBy})</span>
                        ) : null}
                        {f.source ? (
                          <>
                            {" — "}
                            <EvidenceBlock
                              evidence={{
                                source: f.source,
                                asOf: f.asOf ?? "",
                                ...(f.confidence ? { confidence: f.confidence } : {}),
                                ...(f.note ? { note: f.note } : {}),
                              }}
                            />
                          </>
                        ) : (
                          <span className="hint"> — asserted by the catalogue, no document cited</span>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
