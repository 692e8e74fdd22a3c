/** Geographies: every country with the sovereign controls it engages. Free for any valid token. */
import { z } from "zod";
import { readControls, readGeographies } from "../../catalog/store";
import { OPERATIONS } from "../operations";
import { geographiesSchema } from "../schemas";
import { apiProcedure, createRouter } from "../trpc";

export const geographiesRouter = createRouter({
  list: apiProcedure
    .meta({
      operation: OPERATIONS.geographiesList,
      openapi: {
        method: "GET",
        path: "/geographies",
        tags: ["Geographies"],
        protect: true,
        summary: "List geographies",
        description:
          "Every country a reading can engage, with its sovereign controls and the public framework each comes from. A country with no controls moves nothing. Free.",
      },
    })
    .input(z.object({}))
    .output(geographiesSchema)
    .query(async ({ ctx }) => {
      const [geographies, controls] = await Promise.all([readGeographies(ctx.db), readControls(ctx.db)]);
      const byId = new Map(controls.map((c) => [c.id, c]));
      ctx.response.headers["Cache-Control"] = "private, no-cache";
      return {
        geographies: geographies.map((g) => ({
          country: g.country,
          name: g.name,
          controls: g.controls.flatMap((id) => {
            const control = byId.get(id);
            return control ? [control] : [];
          }),
        })),
      };
    }),
});
