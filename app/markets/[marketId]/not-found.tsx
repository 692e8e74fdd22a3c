import Link from "next/link";

/** A market slug or release that does not exist. */
export default function MarketNotFound() {
  return (
    <main>
      <h1>No such market or release</h1>
      <p>
        The market is not in the catalogue, or it has no such release. <Link href="/">See every market</Link>.
      </p>
    </main>
  );
}
