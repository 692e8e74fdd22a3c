/** Geographies: every country with the sovereign controls it engages. Free for any valid token. */
import { z } from "zod";
import { readControls, readGeographies } from "../../catalog/store";
import { OPERATIONS } from "../../domain/operations";
import { geographiesSchema } from "../schemas";
import { apiProcedure, createRouter, operationMeta } from "../trpc";

export const geographiesRouter = createRouter({
  list: apiProcedure
    .meta(operationMeta(OPERATIONS.geographiesList, "Geographies"))
    .input(z.object({}))
    .output(geographiesSchema)
    .query(async ({ ctx }) => {
      const [geographies, controls] = await Promise.all([readGeographies(ctx.db), readControls(ctx.db)]);
      const byId = new Map(controls.map((c) => [c.id, c]));
      ctx.facts.maxAgeSeconds = 0;
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
