/** A file an operation answers instead of JSON (a release export): never built whole, so any size streams in bounded memory. */
export interface Download {
  /** Its name when saved (Content-Disposition): letters, digits, dots and hyphens only. */
  fileName: string;
  mediaType: string;
  /** The same bytes on every call, in pieces. */
  content(): Iterable<string | Uint8Array>;
}
