import { z } from "zod";
import { nameList } from "../../2-formats/name-list";
import { readControls, readGeographies } from "../../3-catalog/store";
import { declareLive } from "../declaration";

export const geographiesSchema = z
  .object({
    geographies: z.array(
      z
        .object({
          country: z.string(),
          name: z.string(),
          controls: z.array(
            z
              .object({ id: z.string(), name: z.string(), description: z.string(), framework: z.string() })
              .meta({ id: "Control" }),
          ),
        })
        .meta({ id: "Geography" }),
    ),
    controls: z
      .array(
        z
          .object({
            id: z.string(),
            name: z.string(),
            description: z.string(),
            framework: z.string(),
            sov: z.array(z.object({ objective: z.string(), level: z.number().int().min(0).max(4) })).meta({
              description: "The EU Cloud Sovereignty Framework objectives satisfying it evidences, at what SEAL level.",
            }),
          })
          .meta({ id: "CatalogueControl" }),
      )
      .meta({
        description:
          "Every control of the catalogue, engaged by a country or not (the ids `requireControls` takes), with what it evidences.",
      }),
  })
  .meta({ id: "Geographies" });

/** The same geographies with each country's controls by id, and every control once (`detail=ids`). */
export const geographiesCompactSchema = z
  .object({
    geographies: z.array(
      z.object({
        country: z.string(),
        name: z.string(),
        controls: z.array(z.string()).meta({ description: "The ids of the controls it engages (see controls)." }),
      }),
    ),
    controls: z.array(z.object({ id: z.string(), name: z.string(), framework: z.string() })).meta({
      description: "Every control of the catalogue, once.",
    }),
  })
  .meta({
    id: "GeographiesByControlId",
    description: "Asked with detail=ids: each country's controls by id, every control named once.",
  });

/** Either answer as one object (MCP output schemas must be objects). */
export const geographiesEitherSchema = z.object({
  geographies: z.array(
    z.object({
      country: z.string(),
      name: z.string(),
      controls: z.array(
        z.union([
          z.string(),
          z.object({ id: z.string(), name: z.string(), description: z.string(), framework: z.string() }),
        ]),
      ),
    }),
  ),
  controls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().optional(),
      framework: z.string(),
      sov: z.array(z.object({ objective: z.string(), level: z.number().int().min(0).max(4) })).optional(),
    }),
  ),
});

const detailParam = z.enum(["full", "ids"], { error: "detail must be full or ids" }).default("full").meta({
  description:
    "`full`: each country's controls as objects (id, name, description, framework). `ids`: each country's control ids, and every control once with its name and framework.",
});

export const geographiesList = declareLive({
  group: "geographies",
  name: "list",
  scope: null,
  credits: 0,
  path: "/geographies",
  summary: "List geographies",
  description:
    "Every country a reading can engage (ISO 3166-1 alpha-2 code and name) with the sovereign controls it requires, and every control once, engaged or not, with its public framework (ids for `requireControls`). A country with no controls moves nothing. `detail=full` gives each country's controls as objects with descriptions.",
  input: z.object({ detail: detailParam }),
  output: z.union([geographiesSchema, geographiesCompactSchema]),
  example: {},
  caching: "live",
  keep: true,
  answer: async (ctx, input) => {
    const [geographies, controls] = await Promise.all([readGeographies(ctx.db), readControls(ctx.db)]);
    if (input.detail === "ids")
      return {
        geographies: geographies.map((g) => ({ country: g.country, name: g.name, controls: [...g.controls] })),
        controls: controls.map((c) => ({ id: c.id, name: c.name, framework: c.framework })),
      };
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
    // A model's first call: each country's control ids, every control named once (`detail: "full"` for descriptions).
    defaults: { detail: "ids" },
    output: geographiesEitherSchema,
    text: (payload) => {
      const withControls = payload.geographies.filter((g) => g.controls.length > 0);
      return [
        `${payload.geographies.length} geographies; ${withControls.length} engage controls (by id; the controls list names each), the other ${payload.geographies.length - withControls.length} move nothing:`,
        ...withControls.map(
          (g) => `- ${g.country} ${g.name}: ${nameList(g.controls.map((c) => (typeof c === "string" ? c : c.id)))}`,
        ),
        `No controls: ${payload.geographies
          .filter((g) => g.controls.length === 0)
          .map((g) => g.country)
          .join(" ")}.`,
      ].join("\n");
    },
  },
});
