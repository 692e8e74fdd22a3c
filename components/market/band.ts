/** A band's CSS class suffix: lowercase words joined by hyphens ("Frontier" → band-frontier). */
export const bandSlug = (band: string) => band.toLowerCase().replace(/[^a-z0-9]+/g, "-");
