import Link from "next/link";

/** A product, market or release that does not exist. */
export default function ProductNotFound() {
  return (
    <main>
      <h1>No such product</h1>
      <p>
        The market has no such product in that release, or the market or release does not exist.{" "}
        <Link href="/">See every market</Link>.
      </p>
    </main>
  );
}
