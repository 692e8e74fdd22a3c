import type { Metadata } from "next";
import Link from "next/link";
import { byCountryName } from "@/components/format";
import { TableWrap } from "@/components/ui/table-wrap";
import { fullGeographies } from "@/server/1-domain/geographies";
import { GEOGRAPHIES_PATH } from "@/server/2-http/paths";
import { readingHref } from "@/server/2-http/reading-context";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Geographies" };
export const dynamic = "force-dynamic";

/** Every country a reading can engage, its controls and the framework each control comes from. */
export default async function GeographiesPage() {
  const { organization } = await requireOrganization(GEOGRAPHIES_PATH);
  const geographies = fullGeographies((await (await dashboardCaller()).geographies.list({})).geographies);
  const controls = new Map<string, { name: string; framework: string; description: string; countries: string[] }>();
  for (const g of geographies)
    for (const c of g.controls) {
      const entry = controls.get(c.id) ?? { ...c, countries: [] };
      entry.countries.push(g.country);
      controls.set(c.id, entry);
    }
  const withoutControls = geographies.filter((g) => g.controls.length === 0);
  return (
    <main>
      <h1>Geographies</h1>
      <p>
        Picking a country engages its sovereign controls: every product is read again using only offerings that meet all
        of them. {geographies.length} countries, {controls.size} controls; {withoutControls.length} countries engage
        none, so nothing moves there. Your organization&apos;s home country is{" "}
        <strong>{organization.homeCountry}</strong>.
      </p>

      <h2>Countries</h2>
      <p className="hint">By name; each opens the markets under that country&apos;s controls.</p>
      <TableWrap label="Countries">
        <table data-testid="geographies-table">
          <thead>
            <tr>
              <th scope="col">Country</th>
              <th scope="col">Controls engaged (framework)</th>
            </tr>
          </thead>
          <tbody>
            {byCountryName(geographies).map((g) => (
              <tr key={g.country} data-country={g.country}>
                <th scope="row">
                  <Link href={readingHref({ to: "markets" }, { country: g.country })} data-testid="geography-link">
                    {g.name}
                  </Link>{" "}
                  <code className="small">{g.country}</code>
                  {g.country === organization.homeCountry ? <span className="badge">home</span> : null}
                </th>
                <td data-label="Controls engaged">
                  {g.controls.length === 0 ? (
                    <span className="hint">none: nothing moves</span>
                  ) : (
                    <ul className="plain">
                      {g.controls.map((c) => (
                        <li key={c.id} data-control-id={c.id}>
                          {c.name} <span className="hint">({c.framework})</span>
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

      <h2>Controls</h2>
      <TableWrap label="Controls">
        <table data-testid="controls-table">
          <thead>
            <tr>
              <th scope="col">Control</th>
              <th scope="col">Framework</th>
              <th scope="col">What it requires</th>
              <th scope="col">Engaged by</th>
            </tr>
          </thead>
          <tbody>
            {[...controls].map(([id, c]) => (
              <tr key={id} data-control-id={id}>
                <th scope="row">
                  {c.name} <code className="small">{id}</code>
                </th>
                <td data-label="Framework">{c.framework}</td>
                <td data-label="What it requires" className="long">
                  {c.description}
                </td>
                <td data-label="Engaged by">{[...c.countries].sort().join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </main>
  );
}
