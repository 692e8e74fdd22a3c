"use client";
/**
 * A select that submits its GET form as soon as it changes, as the market page's country picker
 * applies at once; without JavaScript the form's own button does it.
 */
import type { ComponentProps } from "react";

export function AutoSubmitSelect(props: ComponentProps<"select">) {
  return <select {...props} onChange={(event) => event.currentTarget.form?.requestSubmit()} />;
}
