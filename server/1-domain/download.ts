/**
 * A file an operation answers instead of JSON (a release export): never built in memory whole, so
 * any size streams in bounded memory.
 */
export interface Download {
  /** Its name when saved (Content-Disposition): letters, digits, dots and hyphens only. */
  fileName: string;
  mediaType: string;
  /** The same bytes on every call, in pieces (read from disk for a file built beforehand). */
  content(): Iterable<string | Uint8Array> | AsyncIterable<Uint8Array>;
  /** Its size, when known before it is sent (a file built beforehand). */
  bytes?: number;
  /**
   * A large file is built before the call is charged (once per release, off the event loop): this
   * makes it, and the download it gives is the one sent. Small files (a citation) have none.
   */
  build?(): Promise<Download>;
  /** Called once when the call is over, whether the file was sent or not: frees its download slot. */
  done?(): void;
}
