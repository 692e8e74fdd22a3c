import { z } from "zod";
import { readControls, readGeographies } from "../../catalog/store";
import { declareLive } from "../declaration";
import { geographiesSchema } from "../schemas";

export const geographiesList = declareLive({
  group: "geographies",
  name: "list",
  scope: null,
  credits: 0,
  path: "/geographies",
  summary: "List geographies",
  description:
    "Lists every country a reading can engage (ISO 3166-1 alpha-2 code and name) with the sovereign controls it requires and each control's public framework. A country with no controls moves nothing. Pick `country` for the Max and Delta readings here; `controls` lists every control, engaged or not (ids for `requireControls`).",
  input: z.object({}),
  output: geographiesSchema,
  example: {},
  caching: "live",
  answer: async (ctx) => {
    const [geographies, controls] = await Promise.all([readGeographies(ctx.db), readControls(ctx.db)]);
    const byId = new Map(controls.map((c) => [c.id, c]));
    return {
      geographies: geographies.map((g) => ({
        country: g.country,
        name: g.name,
        controls: g.controls.flatMap((id) => {
          const control = byId.get(id);
          return control
            ? [{ id: control.id, name: control.name, description: control.description, framework: control.framework }]
            : [];
        }),
      })),
      controls: controls.map((c) => ({
        id: c.id,
        name: c.name,
        description: c.description,
        framework: c.framework,
        sov: c.sov ?? [],
      })),
    };
  },
  tool: {
    name: "service_geographies_list",
    text: (payload) =>
      [
        `${payload.geographies.length} geographies:`,
        ...payload.geographies.map(
          (g) =>
            `- ${g.country} ${g.name}: ${g.controls.map((c) => c.name).join(", ") || "no controls (nothing moves)"}`,
        ),
      ].join("\n"),
  },
});
